import { Form, Link } from '@remix-run/react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import * as dashboard from '#app/routes/dashboard.css.ts'
import { button } from './ui/button.css.ts'
import { formErrors } from './ui/field.css.ts'
import { actions } from './ui/table.css.ts'

/**
 * Asks before a destructive action, in the page itself, so it works without JavaScript: the form
 * posts `fields` (a list posts one field per value); `cancel` leads back; `error`: why the last try failed.
 */
export function Confirm({ title, text, fields, confirm, cancel, error }: { title: string; text?: string; fields: Record<string, string | string[]>; confirm: string; cancel: string; error?: string | null }) {
	const { t } = useTranslation()
	const id = useId()
	return (
		<section className={dashboard.section} role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={text ? `${id}-text` : undefined}>
			<h2 id={`${id}-title`} className={dashboard.sectionTitle}>
				{title}
			</h2>
			{text ? <p id={`${id}-text`}>{text}</p> : null}
			{error ? (
				<p role="alert" className={formErrors}>
					{error}
				</p>
			) : null}
			<Form method="post" className={actions}>
				{Object.entries(fields).flatMap(([name, value]) =>
					(Array.isArray(value) ? value : [value]).map((item) => <input key={`${name}-${item}`} type="hidden" name={name} value={item} />),
				)}
				<button type="submit" className={button.destructive}>
					{confirm}
				</button>
				<Link to={cancel} className={button.ghost}>
					{t('actions.cancel')}
				</Link>
			</Form>
		</section>
	)
}
