import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { type LinkChannelValue } from './link-channel-form.schema.ts'
import * as styles from './channels.css.ts'

const loadSchema = () => import('./link-channel-form.schema.ts').then((module) => module.linkChannelSchema)

/**
 * A link channel's settings: a plain form (it works without JavaScript). Only an empty name is
 * refused before it is posted; the API checks the rest and words its messages, shown beside their
 * fields, and what was typed stays.
 */
export function LinkChannelForm({
	id,
	values,
	result,
	prefix,
	submit,
	pending,
}: {
	id: string
	values: Partial<LinkChannelValue>
	result: SubmissionResult<string[]> | undefined
	prefix: string
	submit: string
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadSchema, { id, lastResult: result, defaultValue: values })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<FormErrors id={form.errorId} errors={form.errors} />
			<Field
				label={t('ui.name')}
				input={{ ...getInputProps(fields.name, { type: 'text' }), required: true, maxLength: 80, autoComplete: 'off' }}
				errors={fields.name.errors}
				errorId={fields.name.errorId}
			/>
			<div className={field.field}>
				<label className={field.label} htmlFor={fields.slug.id}>
					{t('ui.slug')}
				</label>
				<input
					{...getInputProps(fields.slug, { type: 'text', ariaDescribedBy: `${fields.slug.id}-help` })}
					maxLength={50}
					dir="ltr"
					autoComplete="off"
					className={field.input}
				/>
				<p id={`${fields.slug.id}-help`} className={field.help}>
					{t('ui.slugHelp', { prefix })}
				</p>
				<ErrorList id={fields.slug.errorId} errors={fields.slug.errors} />
			</div>
			<div className={field.field}>
				<label className={field.label} htmlFor={fields.greeting.id}>
					{t('ui.greeting')}
				</label>
				<textarea {...getTextareaProps(fields.greeting, { ariaDescribedBy: `${fields.greeting.id}-help` })} maxLength={500} className={field.textarea} />
				<p id={`${fields.greeting.id}-help`} className={field.help}>
					{t('ui.greetingHelp')}
				</p>
				<ErrorList id={fields.greeting.errorId} errors={fields.greeting.errors} />
			</div>
			{(['askName', 'askEmail', 'enabled'] as const).map((name) => (
				<label key={name} className={styles.check}>
					<input {...getInputProps(fields[name], { type: 'checkbox' })} />
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
