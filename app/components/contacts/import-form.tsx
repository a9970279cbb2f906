import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type ImportResult } from '#app/.server/api.ts'
import { type Country } from '#app/.server/countries.ts'
import { CountryField } from '#app/components/country-field.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import * as contacts from './contacts.css.ts'

/** CSV import (name, email, phone, company, labels, notes): the report lists each refused row and why. */
export function ImportForm({
	outcome,
	action,
	country,
	countries,
}: {
	/** The action's answer to the last import: its report, or why there is none. */
	outcome: { problem: string | null; result: ImportResult | null; country?: string } | null
	action: string
	/** The workspace's: local numbers of the file are read as its own unless the user picks another. */
	country: string | null
	countries: Country[]
}) {
	const { t } = useTranslation()
	return (
		<section className={`${contacts.panel} ${contacts.importPanel}`} aria-labelledby="import-heading">
			<h2 id="import-heading" className={styles.sectionTitle}>
				{t('contacts.import.title')}
			</h2>
			<p className={styles.pageLead}>{t('contacts.import.help')}</p>
			<Form method="post" action={action} encType="multipart/form-data" className={contacts.importForm}>
				<input type="hidden" name="intent" value="import" />
				<div className={contacts.fileField}>
					<label htmlFor="import-file" className={fieldStyles.label}>
						{t('contacts.import.file')}
					</label>
					<input id="import-file" type="file" name="file" accept=".csv,text/csv" required />
				</div>
				<CountryField
					label={t('contacts.import.country')}
					help={t(country ? 'contacts.import.countryHelp' : 'contacts.countryHelpNone')}
					select={{ id: 'import-country', name: 'country', defaultValue: outcome?.country ?? country ?? '', key: outcome?.country }}
					countries={countries}
					empty={t('contacts.countryNone')}
				/>
				<div>
					<button type="submit" className={button.outline}>
						{t('contacts.import.submit')}
					</button>
				</div>
			</Form>
			{outcome?.problem ? <p role="alert">{outcome.problem}</p> : null}
			{outcome?.result ? (
				<div role="status" className={contacts.report}>
					<p>{t('contacts.import.report', { created: outcome.result.created, updated: outcome.result.updated, rejected: outcome.result.rejected.length })}</p>
					{outcome.result.rejected.length ? (
						<ul>
							{outcome.result.rejected.slice(0, 100).map((rejection) => (
								<li key={`${rejection.row}-${rejection.field ?? ''}`}>{t('contacts.import.rejectedRow', { row: rejection.row, reason: rejection.reason })}</li>
							))}
						</ul>
					) : null}
				</div>
			) : null}
		</section>
	)
}
