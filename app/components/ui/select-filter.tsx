import { Form } from '@remix-run/react'
import { type ReactNode } from 'react'
import { useHydrated } from '#app/utils/hydration.ts'
import { button } from './button.css.ts'
import { input } from './field.css.ts'
import * as table from './table.css.ts'

/**
 * A form of one labelled select (its `children` are the options) that is sent as soon as the choice changes; its button
 * shows only until JavaScript runs, so it works without. `fields` are sent with it (one hidden input each).
 */
export function SelectFilter({
	id,
	name,
	label,
	value,
	method = 'get',
	fields = {},
	submit,
	children,
}: {
	id: string
	name: string
	label: string
	value: string
	method?: 'get' | 'post'
	fields?: Record<string, string>
	submit: string
	children: ReactNode
}) {
	const hydrated = useHydrated()
	return (
		<Form method={method} className={table.search}>
			{Object.entries(fields).map(([field, fieldValue]) => (
				<input key={field} type="hidden" name={field} value={fieldValue} />
			))}
			<label htmlFor={id}>{label}</label>
			{/* Keyed by the value, so a new value from the server resets the choice. */}
			<select id={id} name={name} defaultValue={value} key={value} className={input} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
				{children}
			</select>
			{hydrated ? null : (
				<button type="submit" className={button.outline}>
					{submit}
				</button>
			)}
		</Form>
	)
}
