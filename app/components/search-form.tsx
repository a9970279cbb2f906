import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { button } from './ui/button.css.ts'
import { input } from './ui/field.css.ts'
import * as table from './ui/table.css.ts'

/** A list's search box: a GET form, so the search is in the URL and works without JavaScript. */
export function SearchForm({ id, label, value }: { id: string; label: string; value: string }) {
	const { t } = useTranslation()
	return (
		// Keyed by the search, so a link that changes it also resets the box.
		<Form method="get" className={table.search} role="search" key={value}>
			<label htmlFor={id} className="visually-hidden">
				{label}
			</label>
			<input id={id} type="search" name="search" defaultValue={value} placeholder={label} className={input} />
			<button type="submit" className={button.outline}>
				{t('actions.search')}
			</button>
		</Form>
	)
}
