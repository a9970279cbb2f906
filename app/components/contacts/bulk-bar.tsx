import { Link } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { type Label } from '#app/utils/labels.ts'
import * as contacts from './contacts.css.ts'

/**
 * What to do with the ticked rows: add or remove a label, or delete them (managers only). Sits in
 * the list's form; `selectAllTo` is the page with every row ticked, or none, for the browser without JavaScript.
 */
export function BulkBar({ labels, manages, allSelected, selectAllTo }: { labels: Label[]; manages: boolean; allSelected: boolean; selectAllTo: string }) {
	const { t } = useTranslation()
	return (
		<div className={contacts.bulk}>
			<SelectAll all={allSelected} to={selectAllTo} />
			<label htmlFor="bulk-action">{t('contacts.bulk.label')}</label>
			<select id="bulk-action" name="bulkAction" className={input} defaultValue="label">
				<option value="label">{t('contacts.bulk.addLabel')}</option>
				<option value="unlabel">{t('contacts.bulk.removeLabel')}</option>
				{manages ? <option value="delete">{t('contacts.bulk.delete')}</option> : null}
			</select>
			<label htmlFor="bulk-label" className="visually-hidden">
				{t('contacts.bulk.which')}
			</label>
			<select id="bulk-label" name="labelId" className={input} defaultValue={labels[0]?.id ?? ''}>
				{labels.map((label) => (
					<option key={label.id} value={label.id}>
						{label.title}
					</option>
				))}
			</select>
			<button type="submit" className={button.outline}>
				{t('contacts.bulk.apply')}
			</button>
		</div>
	)
}

/** Ticks or unticks every row of the page: a checkbox with JavaScript, a link that renders them ticked without. */
function SelectAll({ all, to }: { all: boolean; to: string }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const box = useRef<HTMLInputElement>(null)
	useEffect(() => {
		if (box.current?.form) syncSelectAll(box.current.form)
	}, [hydrated])
	if (!hydrated) {
		return (
			<Link to={to} className={`${button.outline} ${contacts.selectAll}`}>
				{all ? t('contacts.selectNone') : t('contacts.selectAll')}
			</Link>
		)
	}
	return (
		<label className={contacts.selectAll}>
			<input
				ref={box}
				type="checkbox"
				name="selectAll"
				onChange={(event) => {
					for (const row of rowBoxes(event.currentTarget.form)) row.checked = event.currentTarget.checked
				}}
			/>
			{t('contacts.selectAll')}
		</label>
	)
}

const rowBoxes = (form: HTMLFormElement | null) => [...(form?.querySelectorAll<HTMLInputElement>('input[name="contactIds"]') ?? [])]

/** The header's box says whether all, some or none of the rows are ticked. */
export function syncSelectAll(form: HTMLFormElement) {
	const header = form.querySelector<HTMLInputElement>('input[name="selectAll"]')
	if (!header) return
	const rows = rowBoxes(form)
	const ticked = rows.filter((row) => row.checked).length
	header.checked = rows.length > 0 && ticked === rows.length
	header.indeterminate = ticked > 0 && ticked < rows.length
}
