import { Form, Link } from '@remix-run/react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import * as dashboard from '#app/routes/dashboard.css.ts'
import { button } from './ui/button.css.ts'
import { formErrors as errorText } from './ui/field.css.ts'
import { actions } from './ui/table.css.ts'

/**
 * Asks before a destructive (or otherwise final) action, in the page itself, so it works without
 * JavaScript: the form posts `fields` (a list posts one field per value); `cancel` leads back;
 * `error` is why the last try was refused; `id` lets a link scroll to it.
 */
export function Confirm({
	id: anchor,
	title,
	text,
	fields,
	confirm,
	cancel,
	tone = 'destructive',
	error,
	action,
}: {
	id?: string
	title: string
	text?: string
	fields: Record<string, string | string[]>
	confirm: string
	cancel: string
	tone?: 'destructive' | 'primary'
	error?: string | null
	/** Where the form posts, when not the route's own address (which Remix marks `?index` on an index route). */
	action?: string
}) {
	const { t } = useTranslation()
	const id = useId()
	return (
		<section id={anchor} className={dashboard.section} role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={text ? `${id}-text` : undefined}>
			<h2 id={`${id}-title`} className={dashboard.sectionTitle}>
				{title}
			</h2>
			{text ? <p id={`${id}-text`}>{text}</p> : null}
			{error ? (
				<p role="alert" className={errorText}>
					{error}
				</p>
			) : null}
			<Form method="post" action={action} className={actions}>
				{Object.entries(fields).flatMap(([name, value]) =>
					(Array.isArray(value) ? value : [value]).map((item) => <input key={`${name}-${item}`} type="hidden" name={name} value={item} />),
				)}
				<button type="submit" className={button[tone]}>
					{confirm}
				</button>
				<Link to={cancel} className={button.ghost}>
					{t('actions.cancel')}
				</Link>
			</Form>
		</section>
	)
}

/** Why an action was refused, where its confirmation (or its row) is no longer there to say it. */
export function Refusal({ title, message }: { title: string; message: string }) {
	return (
		<div role="alert" className={errorText}>
			<strong>{title}</strong>
			<div>{message}</div>
		</div>
	)
}
