import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'

const loadChannelSchema = () => import('./api-channel-form.schema.ts').then((module) => module.apiChannelSchema)
const loadCallbackSchema = () => import('./api-channel-form.schema.ts').then((module) => module.apiCallbackSchema)

/** The callback URL's field: an address, written left to right in every language. */
function CallbackField({ meta }: { meta: FieldMetadata<string> }) {
	const { t } = useTranslation('channels')
	return (
		<div className={field.field}>
			<label className={field.label} htmlFor={meta.id}>
				{t('api.callbackUrl')}
			</label>
			<input
				{...getInputProps(meta, { type: 'url', ariaDescribedBy: `${meta.id}-help` })}
				required
				maxLength={2000}
				dir="ltr"
				autoComplete="off"
				placeholder="https://"
				className={field.input}
			/>
			<p id={`${meta.id}-help`} className={field.help}>
				{t('api.callbackHelp')}
			</p>
			<ErrorList id={meta.errorId} errors={meta.errors} />
		</div>
	)
}

/** A new API channel: its name and callback URL, a plain form (it works without JavaScript); the API checks the address. */
export function ApiChannelForm({ result, pending }: { result: SubmissionResult<string[]> | undefined; pending: boolean }) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadChannelSchema, { id: 'api', lastResult: result })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="kind" value="api" />
			<FormErrors id={form.errorId} errors={form.errors} />
			<Field
				label={t('ui.name')}
				input={{ ...getInputProps(fields.name, { type: 'text' }), required: true, maxLength: 80, autoComplete: 'off' }}
				errors={fields.name.errors}
				errorId={fields.name.errorId}
			/>
			<CallbackField meta={fields.callbackUrl} />
			<div>
				<Button type="submit" disabled={pending}>
					{t('api.create')}
				</Button>
			</div>
		</Form>
	)
}

/** An API channel's callback URL on its own page. */
export function ApiCallbackForm({ callbackUrl, result, pending }: { callbackUrl: string; result: SubmissionResult<string[]> | undefined; pending: boolean }) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadCallbackSchema, { id: 'callback', lastResult: result, defaultValue: { callbackUrl } })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="intent" value="callback" />
			<FormErrors id={form.errorId} errors={form.errors} />
			<CallbackField meta={fields.callbackUrl} />
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('api.saveCallback')}
				</Button>
			</div>
		</Form>
	)
}
