import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type CampaignJson, type ChannelJson, type LabelJson } from '#app/.server/api.ts'
import { type FormReply } from '#app/.server/forms.ts'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { isolatedText } from '#app/utils/bidi.tsx'
import { type Audience } from '#app/utils/campaigns.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { useLiveAudience } from './use-live-audience.ts'

const loadSchema = () => import('#app/routes/$lang.dashboard.campaign-manager.schema.ts').then((module) => module.campaignSchema)

/**
 * A new campaign, or a draft or scheduled one being edited (`editing`); `answer` is the action's
 * last answer to this form (its errors, and the audience the "count" button counted).
 */
export function CampaignForm({
	locale,
	channels,
	labels,
	editing,
	answer,
}: {
	locale: string
	channels: ChannelJson[]
	labels: LabelJson[]
	editing: CampaignJson | null
	answer: FormReply<{ audience: Audience | null }> | undefined
}) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const { formRef, onChange, audience: counted, counting } = useLiveAudience(locale)
	// The live count once it is back; until then (or without JavaScript) the "count" button's answer.
	const audience = counted ?? answer?.audience ?? null
	const [form, fields] = useValidatedForm(loadSchema, {
		id: editing ? `campaign-${editing.id}` : 'campaign-new',
		lastResult: answer?.result,
		shouldValidate: 'onSubmit',
		defaultValue: editing
			? {
					name: editing.name,
					channelId: editing.channelId,
					labelsIn: editing.labelsIn,
					labelsOut: editing.labelsOut,
					body: editing.template ? '' : editing.body,
					templateName: editing.template?.name ?? '',
					templateLanguage: editing.template?.language ?? '',
					templateParameters: editing.template?.parameters.join('\n') ?? '',
					scheduledAt: editing.scheduledAt?.slice(0, 16) ?? '',
				}
			: { channelId: channels[0]?.id },
	})
	const chosen = (name: 'labelsIn' | 'labelsOut', id: string) => {
		const value = fields[name].value
		return Array.isArray(value) ? value.includes(id) : value === id
	}
	return (
		<section className={styles.section} aria-labelledby="campaign-form-heading">
			<h2 id="campaign-form-heading" className={styles.sectionTitle}>
				{editing ? t('campaigns.edit', { name: isolatedText(editing.name) }) : t('campaigns.new')}
			</h2>
			<Form method="post" {...getFormProps(form)} className={formClass} ref={formRef} onChange={onChange}>
				{editing ? <input type="hidden" name="campaignId" value={editing.id} /> : null}
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field
					label={t('campaigns.name')}
					input={{ ...getInputProps(fields.name, { type: 'text' }), required: true, autoComplete: 'off' }}
					errors={fields.name.errors}
					errorId={fields.name.errorId}
				/>
				<div className={fieldStyles.field}>
					<label htmlFor={fields.channelId.id} className={fieldStyles.label}>
						{t('campaigns.channel')}
					</label>
					<select
						id={fields.channelId.id}
						name={fields.channelId.name}
						defaultValue={String(fields.channelId.initialValue ?? '')}
						className={fieldStyles.input}
						required
					>
						{channels.map((channel) => (
							<option key={channel.id} value={channel.id}>
								{channel.name} ({channel.kind})
							</option>
						))}
					</select>
					<ErrorList id={fields.channelId.errorId} errors={fields.channelId.errors} />
				</div>
				{(['labelsIn', 'labelsOut'] as const).map((name) => (
					<fieldset key={name} className={fieldStyles.choices}>
						<legend className={fieldStyles.label}>{t(`campaigns.${name}`)}</legend>
						{labels.map((label) => (
							<label key={label.id} className={fieldStyles.choice}>
								<input type="checkbox" name={name} value={label.id} defaultChecked={chosen(name, label.id)} /> {label.title}
							</label>
						))}
						{labels.length === 0 ? <p>{t('campaigns.noLabels')}</p> : null}
						<ErrorList id={fields[name].errorId} errors={fields[name].errors} />
					</fieldset>
				))}
				<div className={table.actions}>
					<Button type="submit" name="intent" value="count" variant="outline" disabled={pending}>
						{t('campaigns.count')}
					</Button>
					<p role="status" aria-busy={counting || undefined}>
						{audience ? t('campaigns.audienceCount', { count: audience.count }) : null}
						{audience && audience.recipients.length > 0
							? ` — ${audience.recipients.map((recipient) => recipient.name).join(', ')}${audience.count > audience.recipients.length ? '…' : ''}`
							: ''}
					</p>
				</div>
				<div className={fieldStyles.field}>
					<label htmlFor={fields.body.id} className={fieldStyles.label}>
						{t('campaigns.message')}
					</label>
					<textarea {...getTextareaProps(fields.body)} className={fieldStyles.textarea} aria-describedby={`${fields.body.id}-help`} />
					<p id={`${fields.body.id}-help`} className={fieldStyles.help}>
						{t('campaigns.variablesHelp')}
					</p>
					<ErrorList id={fields.body.errorId} errors={fields.body.errors} />
				</div>
				<details>
					<summary>{t('campaigns.template')}</summary>
					<Field
						label={t('campaigns.templateName')}
						input={{ ...getInputProps(fields.templateName, { type: 'text' }), autoComplete: 'off', dir: 'ltr' }}
						errors={fields.templateName.errors}
						errorId={fields.templateName.errorId}
					/>
					<Field
						label={t('campaigns.templateLanguage')}
						input={{ ...getInputProps(fields.templateLanguage, { type: 'text' }), autoComplete: 'off', dir: 'ltr' }}
						errors={fields.templateLanguage.errors}
						errorId={fields.templateLanguage.errorId}
					/>
					<div className={fieldStyles.field}>
						<label htmlFor={fields.templateParameters.id} className={fieldStyles.label}>
							{t('campaigns.templateParameters')}
						</label>
						<textarea {...getTextareaProps(fields.templateParameters)} className={fieldStyles.textarea} />
						<ErrorList id={fields.templateParameters.errorId} errors={fields.templateParameters.errors} />
					</div>
				</details>
				<Field
					label={t('campaigns.scheduledAt')}
					help={t('campaigns.scheduledAtHelp')}
					input={getInputProps(fields.scheduledAt, { type: 'datetime-local' })}
					errors={fields.scheduledAt.errors}
					errorId={fields.scheduledAt.errorId}
				/>
				<Field
					label={t('campaigns.rate')}
					help={t('campaigns.rateHelp')}
					input={{ ...getInputProps(fields.ratePerSecond, { type: 'number' }), min: 1, max: 1000 }}
					errors={fields.ratePerSecond.errors}
					errorId={fields.ratePerSecond.errorId}
				/>
				<div className={table.actions}>
					<Button type="submit" name="intent" value="save" disabled={pending}>
						{editing ? t('campaigns.save') : t('campaigns.create')}
					</Button>
					<Link to={`/${locale}/dashboard/campaign-manager`} className={button.ghost}>
						{t('actions.cancel')}
					</Link>
				</div>
			</Form>
		</section>
	)
}
