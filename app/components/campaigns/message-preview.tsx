import { Form, useSubmit } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { isolatedText } from '#app/utils/bidi.tsx'
import { type Preview } from '#app/utils/campaigns.ts'

/**
 * The message as one real contact reads it: the audience's first by default; a search of the
 * workspace's contacts and a choice among them (GET forms: without JavaScript, a search and a
 * submit; with it, the search runs as one types and a choice shows at once).
 */
export function MessagePreview({
	campaignId,
	status,
	preview,
	previewSearch,
	previewChoices,
	previewNoMatch,
}: {
	campaignId: string
	/** The recipients' filter, kept as the preview changes. */
	status: string
	preview: Preview | null
	previewSearch: string
	previewChoices: Array<{ contactId: string; name: string }>
	/** Nothing found for the search (the contact previewed is still offered). */
	previewNoMatch: boolean
}) {
	const { t } = useTranslation()
	const submit = useSubmit()
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])
	const keep = (
		<>
			<input type="hidden" name="campaign" value={campaignId} />
			{status ? <input type="hidden" name="status" value={status} /> : null}
		</>
	)
	const quietly = { replace: true, preventScrollReset: true } as const
	return (
		<section aria-labelledby="preview-heading" className={styles.section}>
			<h3 id="preview-heading" className={styles.sectionTitle}>
				{t('campaigns.previewTitle')}
			</h3>
			{preview ? (
				<p>
					{t('campaigns.previewFor', { name: isolatedText(preview.name) })}{' '}
					<q>
						<bdi>{preview.body}</bdi>
					</q>
				</p>
			) : (
				<p>{t('campaigns.noPreview')}</p>
			)}
			<Form
				method="get"
				role="search"
				className={table.actions}
				onChange={(event) => {
					const searchForm = event.currentTarget
					clearTimeout(timer.current)
					timer.current = setTimeout(() => submit(searchForm, quietly), 300)
				}}
			>
				{keep}
				<label htmlFor="preview-search">{t('campaigns.previewSearch')}</label>
				<input
					id="preview-search"
					type="search"
					name="previewSearch"
					defaultValue={previewSearch}
					maxLength={100}
					autoComplete="off"
					className={fieldStyles.input}
				/>
				<Button type="submit" variant="outline">
					{t('campaigns.previewFind')}
				</Button>
			</Form>
			{previewNoMatch ? <p role="status">{t('campaigns.previewNoMatch', { search: previewSearch })}</p> : null}
			{previewChoices.length > 0 ? (
				<Form method="get" className={table.actions} key={`${previewSearch} ${preview?.contactId ?? ''}`}>
					{keep}
					{previewSearch ? <input type="hidden" name="previewSearch" value={previewSearch} /> : null}
					<label htmlFor="preview-contact">{t('campaigns.previewContact')}</label>
					<select
						id="preview-contact"
						name="previewContact"
						defaultValue={preview?.contactId}
						className={fieldStyles.input}
						onChange={(event) => {
							// A choice wins over a search still waiting to run.
							clearTimeout(timer.current)
							submit(event.currentTarget.form, quietly)
						}}
					>
						{previewChoices.map((choice) => (
							<option key={choice.contactId} value={choice.contactId}>
								{choice.name}
							</option>
						))}
					</select>
					<Button type="submit" variant="outline">
						{t('campaigns.previewShow')}
					</Button>
				</Form>
			) : null}
		</section>
	)
}
