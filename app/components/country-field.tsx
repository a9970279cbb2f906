import { type SelectHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { type Country } from '#app/.server/countries.ts'
import { ErrorList } from './ui/field.tsx'
import * as styles from './ui/field.css.ts'
import { field } from './country-field.css.ts'

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim()

/**
 * A country picker that works without JavaScript: a select of every country by its name in the
 * user's language, and a search box whose suggestions are the same names. With JavaScript a
 * suggestion picks its country at once; without, the action reads what was typed (`findCountry`).
 */
export function CountryField({
	label,
	help,
	select,
	countries,
	empty,
	searchName = 'countrySearch',
	errors,
	errorId,
}: {
	label: string
	help?: string
	/** The select's props (conform's `getSelectProps`, or `id`, `name`, `defaultValue`). */
	select: SelectHTMLAttributes<HTMLSelectElement> & { id: string; key?: string }
	countries: readonly Country[]
	/** The first choice, for none (value ''). */
	empty?: string
	searchName?: string
	errors?: string[]
	errorId?: string
}) {
	const { t } = useTranslation()
	const { key, ...selectProps } = select
	const listId = `${select.id}-names`
	return (
		<div className={field}>
			<label className={styles.label} htmlFor={select.id}>
				{label}
			</label>
			<select key={key} className={styles.input} {...selectProps}>
				{empty ? <option value="">{empty}</option> : null}
				{countries.map((country) => (
					<option key={country.code} value={country.code}>
						{country.name}
					</option>
				))}
			</select>
			<input
				type="search"
				name={searchName}
				list={listId}
				className={styles.input}
				aria-label={t('countries.search', { label })}
				placeholder={t('countries.searchHint')}
				autoComplete="off"
				onInput={(event) => {
					const box = event.currentTarget
					const found = countries.find((country) => fold(country.name) === fold(box.value))
					const picker = box.form?.elements.namedItem(String(select.name))
					if (!found || !(picker instanceof HTMLSelectElement)) return
					picker.value = found.code
					picker.dispatchEvent(new Event('change', { bubbles: true }))
					box.value = ''
				}}
			/>
			<datalist id={listId}>
				{countries.map((country) => (
					<option key={country.code} value={country.name} />
				))}
			</datalist>
			{help ? <p className={styles.help}>{help}</p> : null}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}
