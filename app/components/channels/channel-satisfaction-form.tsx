import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import * as styles from './channels.css.ts'

const loadSchema = () => import('./channel-satisfaction-form.schema.ts').then((module) => module.channelSatisfactionSchema)

/** The channel's satisfaction survey, on or off. */
export function ChannelSatisfactionForm({
	csatEnabled,
	result,
	pending,
}: {
	csatEnabled: boolean
	result: SubmissionResult<string[]> | undefined
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadSchema, { id: 'channel-satisfaction', lastResult: result, defaultValue: { csatEnabled } })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="intent" value="satisfaction" />
			<FormErrors id={form.errorId} errors={form.errors} />
			<label className={styles.check}>
				<input {...getInputProps(fields.csatEnabled, { type: 'checkbox', ariaDescribedBy: 'satisfaction-help' })} />
				{t('ui.satisfactionEnabled')}
			</label>
			<p id="satisfaction-help" className={field.help}>
				{t('ui.satisfactionHelp')}
			</p>
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('ui.saveSatisfaction')}
				</Button>
			</div>
		</Form>
	)
}
