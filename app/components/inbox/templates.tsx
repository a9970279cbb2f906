import { Form, Link, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { button } from '#app/components/ui/button.css.ts'
import * as field from '#app/components/ui/field.css.ts'
import { type InboxLoader } from '#app/routes/$lang.dashboard.conversations.tsx'
import { withParams } from '#app/utils/conversations.ts'
import * as styles from './inbox.css.ts'

/**
 * WhatsApp's approved templates, the only replies it lets through 24 hours after the customer's
 * last message. Asked of Meta when the agent opens the picker (`?templates`); one plain form per
 * template, with a field for each of its values, so it works without JavaScript.
 */
export function TemplatePicker({ number }: { number: number }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const { pathname, search } = useLocation()
	const templates = useRouteLoaderData<InboxLoader>('routes/$lang.dashboard.conversations')?.templates ?? null
	if (templates === null) {
		return (
			<p className={styles.templates}>
				<Link to={withParams(pathname, search, { templates: '1' })} preventScrollReset>
					{t('templates.open')}
				</Link>
			</p>
		)
	}
	return (
		<section className={styles.templates} aria-labelledby="templates-heading">
			<h3 id="templates-heading">{t('templates.title')}</h3>
			{templates.length === 0 ? <p>{t('templates.none')}</p> : null}
			{templates.map((template) => (
				<Form key={`${template.name}-${template.language}`} method="post" className={field.form} aria-label={template.name}>
					<input type="hidden" name="intent" value="template" />
					<input type="hidden" name="number" value={number} />
					<input type="hidden" name="name" value={template.name} />
					<input type="hidden" name="language" value={template.language} />
					<p dir="auto">
						<strong dir="ltr">{template.name}</strong> ({template.language}): {template.body}
					</p>
					{Array.from({ length: template.parameterCount }, (_, index) => (
						<label key={index} className={field.label}>
							{t('templates.value', { n: index + 1 })}
							<input name="parameters" required maxLength={1024} className={field.input} dir="auto" />
						</label>
					))}
					<div>
						<button type="submit" className={button.outline}>
							{t('templates.send')}
						</button>
					</div>
				</Form>
			))}
			<Link to={withParams(pathname, search, { templates: null })} preventScrollReset>
				{t('templates.close')}
			</Link>
		</section>
	)
}
