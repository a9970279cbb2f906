import { getCollectionProps, getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { FormActions } from '#app/components/ui/button.tsx'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { webhookEventTypes, type WebhookSubscriptionJson } from '#common/webhooks.ts'
import { languageOf, type Locale } from '#locales/languages.ts'

const loadWebhookSchema = () => import('#app/routes/$lang.dashboard.settings.integrations.webhooks.schema.ts').then((module) => module.webhookSchema)

/** On, off, failing since when, or turned off after a day of failures. */
export function WebhookStatus({ webhook, locale, timeZone }: { webhook: WebhookSubscriptionJson; locale: Locale; timeZone: string }) {
	const { t } = useTranslation('webhooks')
	const when = dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'short', timeZone })
	if (!webhook.enabled && webhook.disabledAt) return <>{t('status.disabledByFailures', { at: when.format(new Date(webhook.disabledAt)) })}</>
	if (!webhook.enabled) return <>{t('status.disabled')}</>
	if (webhook.failingSince) return <>{t('status.failing', { since: when.format(new Date(webhook.failingSince)) })}</>
	return <>{t('status.enabled')}</>
}

/** The address and the events ticked; checked in the browser and again by the API, which also says whether the address may be reached. */
export function WebhookForm({
	lastResult,
	editing,
	cancel,
}: {
	lastResult: SubmissionResult<string[]> | undefined
	editing?: WebhookSubscriptionJson
	cancel?: string
}) {
	const { t } = useTranslation('webhooks')
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadWebhookSchema, {
		id: editing ? `webhook-${editing.id}` : 'webhook-new',
		lastResult,
		defaultValue: editing ? { url: editing.url, events: editing.events, enabled: editing.enabled } : { events: [] },
	})
	const options = [...webhookEventTypes]
	return (
		<section className={styles.section} aria-labelledby="webhook-form-heading">
			<h2 id="webhook-form-heading" className={styles.sectionTitle}>
				{editing ? t('form.editHeading') : t('form.newHeading')}
			</h2>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				{editing ? <input type="hidden" name="intent" value="save" /> : null}
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field label={t('form.url')} help={t('form.urlHint')} field={fields.url} type="url" required autoComplete="off" spellCheck={false} dir="ltr" />
				<fieldset className={fieldStyles.field} aria-describedby={fields.events.errors?.length ? fields.events.errorId : undefined}>
					<legend className={fieldStyles.label}>{t('form.events')}</legend>
					<div className={fieldStyles.choices}>
						{getCollectionProps(fields.events, { type: 'checkbox', options }).map(({ key, ...props }) => (
							<label key={key} className={fieldStyles.choice}>
								<input {...props} />
								{t(`events.${props.value}`)}
							</label>
						))}
					</div>
					<ErrorList id={fields.events.errorId} errors={fields.events.errors} />
				</fieldset>
				{editing ? (
					<div className={fieldStyles.field}>
						<label className={styles.check}>
							<input {...getInputProps(fields.enabled, { type: 'checkbox' })} role="switch" />
							{t('form.enabled')}
						</label>
						<ErrorList id={fields.enabled.errorId} errors={fields.enabled.errors} />
					</div>
				) : null}
				<FormActions submit={editing ? t('form.save') : t('form.create')} cancel={cancel} pending={pending} />
			</Form>
		</section>
	)
}
