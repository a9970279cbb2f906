import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import * as field from '#app/components/ui/field.css.ts'
import * as styles from './channels.css.ts'

export type LinkChannelValues = { name: string; slug: string; enabled: boolean; greeting: string; awayMessage: string; askName: boolean; askEmail: boolean }

export type Reply = { fieldErrors: Record<string, string[]>; formError: string | null; values: Record<string, string | boolean> } | undefined

/** A channel form's field messages from the API's reply: the list under a field, and its `aria-describedby` (ids after `idPrefix`: a page has several forms with the same fields). */
export function fieldMessages(reply: Reply, idPrefix = '') {
	const errorsOf = (name: string) => reply?.fieldErrors[name]
	const described = (name: string, help?: boolean) =>
		[help ? `${idPrefix}${name}-help` : '', errorsOf(name) ? `${idPrefix}${name}-error` : ''].filter(Boolean).join(' ') || undefined
	const errorList = (name: string) =>
		errorsOf(name) ? (
			<ul id={`${idPrefix}${name}-error`} className={field.errors}>
				{errorsOf(name)!.map((message) => (
					<li key={message}>{message}</li>
				))}
			</ul>
		) : null
	return { errorsOf, described, errorList }
}

/**
 * A link channel's settings: a plain form (it works without JavaScript); the API checks it and
 * words its messages, shown beside their fields, and what was typed stays.
 */
export function LinkChannelForm({
	values,
	reply,
	prefix,
	submit,
	pending,
}: {
	values: LinkChannelValues
	reply: Reply
	prefix: string
	submit: string
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const current = { ...values, ...reply?.values } as LinkChannelValues
	const { errorsOf, described, errorList } = fieldMessages(reply)
	return (
		<Form method="post" className={field.form} key={JSON.stringify(reply?.values ?? values)}>
			{reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			<div className={field.field}>
				<label className={field.label} htmlFor="name">
					{t('ui.name')}
				</label>
				<input
					id="name"
					name="name"
					required
					maxLength={80}
					defaultValue={current.name}
					className={field.input}
					aria-invalid={errorsOf('name') ? true : undefined}
					aria-describedby={described('name')}
					autoComplete="off"
				/>
				{errorList('name')}
			</div>
			<div className={field.field}>
				<label className={field.label} htmlFor="slug">
					{t('ui.slug')}
				</label>
				<input
					id="slug"
					name="slug"
					maxLength={50}
					pattern="[a-z0-9]+(-[a-z0-9]+)*"
					dir="ltr"
					defaultValue={current.slug}
					className={field.input}
					aria-invalid={errorsOf('slug') ? true : undefined}
					aria-describedby={described('slug', true)}
					autoComplete="off"
				/>
				<p id="slug-help" className={field.help}>
					{t('ui.slugHelp', { prefix })}
				</p>
				{errorList('slug')}
			</div>
			<div className={field.field}>
				<label className={field.label} htmlFor="greeting">
					{t('ui.greeting')}
				</label>
				<textarea
					id="greeting"
					name="greeting"
					maxLength={500}
					defaultValue={current.greeting}
					className={field.textarea}
					aria-invalid={errorsOf('greeting') ? true : undefined}
					aria-describedby={described('greeting', true)}
				/>
				<p id="greeting-help" className={field.help}>
					{t('ui.greetingHelp')}
				</p>
				{errorList('greeting')}
			</div>
			<div className={field.field}>
				<label className={field.label} htmlFor="awayMessage">
					{t('ui.awayMessage')}
				</label>
				<textarea
					id="awayMessage"
					name="awayMessage"
					maxLength={500}
					defaultValue={current.awayMessage}
					className={field.textarea}
					aria-invalid={errorsOf('awayMessage') ? true : undefined}
					aria-describedby={described('awayMessage', true)}
				/>
				<p id="awayMessage-help" className={field.help}>
					{t('ui.awayHelp')}
				</p>
				{errorList('awayMessage')}
			</div>
			{(['askName', 'askEmail', 'enabled'] as const).map((name) => (
				<label key={name} className={styles.check}>
					<input type="checkbox" name={name} defaultChecked={current[name]} />
					{t(`ui.${name}`)}
				</label>
			))}
			<div>
				<Button type="submit" disabled={pending}>
					{submit}
				</Button>
			</div>
		</Form>
	)
}
