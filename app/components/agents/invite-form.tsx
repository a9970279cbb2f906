import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { toastWhile } from '#app/components/toaster.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Field, FormErrors, SelectField, formClass } from '#app/components/ui/field.tsx'
import { input } from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import * as dashboard from '#app/routes/dashboard.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'

const loadInviteSchema = () => import('#app/routes/$lang.dashboard.settings.agents.schema.ts').then((module) => module.inviteSchema)

/** The invitation form: by link or by e-mail, its role, how long and how often it may be used; the API's refusal beside it, with what was typed. */
export function InviteForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadInviteSchema, {
		id: 'invite',
		lastResult,
		defaultValue: { method: 'link', role: 'agent', expiresInDays: '7' },
	})
	return (
		<section className={dashboard.section} aria-labelledby="invite-heading">
			<h2 id="invite-heading" className={dashboard.sectionTitle}>
				{t('agents.invite')}
			</h2>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<FormErrors id={form.errorId} errors={form.errors} />
				<SelectField label={t('agents.method')} field={fields.method}>
					<option value="link">{t('agents.methods.link')}</option>
					<option value="email">{t('agents.methods.email')}</option>
				</SelectField>
				<Field label={t('agents.email')} help={t('agents.emailHelp')} field={fields.email} type="email" autoComplete="off" />
				<SelectField label={t('team.role')} field={fields.role}>
					<option value="agent">{t('roles.agent')}</option>
					<option value="admin">{t('roles.admin')}</option>
				</SelectField>
				<Field label={t('agents.expiresInDays')} field={fields.expiresInDays} type="number" min={1} max={30} required />
				<Field label={t('agents.maxUses')} help={t('agents.maxUsesHelp')} field={fields.maxUses} type="number" min={1} max={1000} />
				<Button type="submit" disabled={pending}>
					{t('agents.submit')}
				</Button>
			</Form>
		</section>
	)
}

/** The link of the invitation just created, to share: selectable text always, a copy button once JavaScript runs. */
export function InviteLink({ url }: { url: string }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	return (
		<section className={dashboard.section} aria-labelledby="created-heading">
			<h2 id="created-heading" className={dashboard.sectionTitle}>
				{t('agents.linkReady')}
			</h2>
			<div className={table.search}>
				<label htmlFor="invite-link" className="visually-hidden">
					{t('agents.link')}
				</label>
				<input id="invite-link" readOnly value={url} className={input} onFocus={(event) => event.currentTarget.select()} />
				{hydrated ? (
					<button
						type="button"
						className={button.primary}
						onClick={() =>
							void toastWhile(navigator.clipboard.writeText(url), {
								loading: t('agents.copying'),
								success: t('agents.copied'),
								error: t('agents.copyFailed'),
							}).catch(() => {})
						}
					>
						{t('agents.copy')}
					</button>
				) : null}
			</div>
		</section>
	)
}
