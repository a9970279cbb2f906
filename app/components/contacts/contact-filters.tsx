import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { AnyOfFilter } from '#app/components/ui/any-of-filter.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { type ContactQuery } from '#app/utils/contacts.ts'
import { type Label } from '#app/utils/labels.ts'
import * as contacts from './contacts.css.ts'

/** The list's search and label filter, a GET form that keeps the order; `base` is the list without any filter. */
export function ContactFilters({ query, labels, base }: { query: ContactQuery; labels: Label[]; base: string }) {
	const { t } = useTranslation()
	return (
		// Keyed by the filter, so a link that changes it (clear, a label's count) also resets the fields.
		<Form method="get" className={contacts.filters} role="search" key={`${query.search}|${query.label}`}>
			<div className={contacts.filter}>
				<label htmlFor="contact-search">{t('contacts.search')}</label>
				<input id="contact-search" type="search" name="search" defaultValue={query.search} className={input} placeholder={t('contacts.searchHint')} />
			</div>
			<AnyOfFilter
				className={contacts.filter}
				id="contact-label"
				label={t('contacts.label')}
				name="label"
				value={query.label}
				any={t('contacts.anyLabel')}
				choices={labels.map((label) => ({ value: label.id, label: label.title }))}
			/>
			<input type="hidden" name="sort" value={query.sort} />
			<input type="hidden" name="direction" value={query.direction} />
			<button type="submit" className={button.outline}>
				{t('actions.search')}
			</button>
			{query.search || query.label ? (
				<Link to={base} className={button.ghost}>
					{t('contacts.clear')}
				</Link>
			) : null}
		</Form>
	)
}
