import { getFormProps } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type TwoFactorSetup } from '#app/.server/auth.ts'
import { type User } from '#app/.server/session.ts'
import { CopyButton } from '#app/components/channels/copy-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Field, FormErrors, PasswordField, formClass, type ConformField } from '#app/components/ui/field.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { type profileAction } from '#app/routes/$lang.dashboard.profile.server.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'

const loadEnableSchema = () => import('#app/routes/$lang.dashboard.profile.schema.ts').then((module) => module.twoFactorEnableSchema)
const loadCodeSchema = () => import('#app/routes/$lang.dashboard.profile.schema.ts').then((module) => module.twoFactorCodeSchema)
const loadDisableSchema = () => import('#app/routes/$lang.dashboard.profile.schema.ts').then((module) => module.twoFactorDisableSchema)

/** The secret as people type it: groups of four. */
const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ')

/**
 * Two-step sign-in: turning it on (QR code, the secret written out, a first code), the recovery
 * codes shown once, new ones, turning it off. Every step is a form post, so it works without JavaScript.
 */
export function TwoFactorSection({ user, state }: { user: User; state: { enabled: boolean; since: string | null; recoveryCodesLeft: number } }) {
	const actionData = useKeptActionData<typeof profileAction>()
	const { t } = useTranslation()
	const navigation = useNavigation()
	const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
	const reply = actionData && 'intent' in actionData && actionData.intent.startsWith('two-factor') ? actionData : undefined
	const setup = reply && 'setup' in reply ? reply.setup : null
	const recoveryCodes = reply && 'recoveryCodes' in reply ? reply.recoveryCodes : null
	const required = Boolean(user.workspace?.requireTwoFactor) && !state.enabled
	return (
		<section id="two-factor" className={styles.section} aria-labelledby="two-factor-heading">
			<h2 id="two-factor-heading" className={styles.sectionTitle}>
				{t('twoFactor.title')}
			</h2>
			{required && user.workspace ? (
				<p className={styles.banner} role="status">
					{t('twoFactor.requiredNotice', { workspace: user.workspace.name })}
				</p>
			) : null}
			{reply?.intent === 'two-factor-enable' && recoveryCodes ? (
				<p className={styles.banner} role="status">
					{t('twoFactor.othersSignedOut')}
				</p>
			) : null}
			{recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
			{state.enabled ? (
				<>
					<p>{t('twoFactor.onSince', { date: state.since ?? '' })}</p>
					<p>{t('twoFactor.codesLeft', { count: state.recoveryCodesLeft })}</p>
					<RegenerateForm
						result={reply?.intent === 'two-factor-regenerate' && 'result' in reply ? reply.result : undefined}
						busy={busy('two-factor-regenerate')}
					/>
					<DisableForm result={reply?.intent === 'two-factor-disable' && 'result' in reply ? reply.result : undefined} busy={busy('two-factor-disable')} />
				</>
			) : setup ? (
				<SetUp setup={setup} result={reply?.intent === 'two-factor-enable' && 'result' in reply ? reply.result : undefined} busy={busy('two-factor-enable')} />
			) : (
				<Form method="post" className={formClass}>
					<p>{t('twoFactor.offLead')}</p>
					<div>
						<Button type="submit" name="intent" value="two-factor-setup" disabled={busy('two-factor-setup')}>
							{t('twoFactor.turnOn')}
						</Button>
					</div>
				</Form>
			)}
		</section>
	)
}

type Result = Parameters<typeof useValidatedForm>[1]['lastResult']

function SetUp({ setup, result, busy }: { setup: TwoFactorSetup; result: Result; busy: boolean }) {
	const { t } = useTranslation()
	const [form, fields] = useValidatedForm(loadEnableSchema, { id: 'two-factor-enable', lastResult: result })
	return (
		<div className={formClass}>
			<p>{t('twoFactor.setup.scan')}</p>
			<img className={styles.qrCode} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} alt={t('twoFactor.setup.qrAlt')} />
			<p id="two-factor-manual">{t('twoFactor.setup.manual')}</p>
			<p>
				<code className={styles.secret} data-testid="two-factor-secret" aria-describedby="two-factor-manual">
					{groupedSecret(setup.secret)}
				</code>
			</p>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<input type="hidden" name="secret" value={setup.secret} />
				<input type="hidden" name="uri" value={setup.uri} />
				<FormErrors id={form.errorId} errors={form.errors} />
				<AppCodeField field={fields.code} help={`${t('twoFactor.setup.confirmHelp')} ${t('twoFactor.setup.signsOutOthers')}`} />
				<div>
					<Button type="submit" name="intent" value="two-factor-enable" disabled={busy}>
						{t('twoFactor.setup.confirm')}
					</Button>
				</div>
			</Form>
		</div>
	)
}

/** Shown once, after turning on or asking for new ones: to copy, download or write down. */
function RecoveryCodes({ codes }: { codes: string[] }) {
	const { t } = useTranslation()
	const text = codes.join('\n')
	return (
		<div className={formClass} role="status">
			<h3 className={styles.sectionTitle}>{t('twoFactor.codes.title')}</h3>
			<p>{t('twoFactor.codes.lead')}</p>
			<textarea
				className={styles.recoveryCodes}
				readOnly
				rows={codes.length}
				value={text}
				aria-label={t('twoFactor.codes.title')}
				data-testid="recovery-codes"
			/>
			<div className={styles.actionsRow}>
				<CopyButton text={text} label={t('twoFactor.codes.copy')} copiedLabel={t('twoFactor.codes.copied')} accessibleName={t('twoFactor.codes.copy')} />
				<a className={button.outline} href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${text}\n`)}`} download="recovery-codes.txt">
					{t('twoFactor.codes.download')}
				</a>
			</div>
		</div>
	)
}

/** The code the authenticator app shows now: six digits, perhaps split by a space or a dash. */
function AppCodeField({ field, help }: { field: ConformField; help?: string }) {
	const { t } = useTranslation()
	return (
		<Field
			label={t('twoFactor.fields.code')}
			help={help}
			field={field}
			type="text"
			autoComplete="one-time-code"
			inputMode="numeric"
			maxLength={7}
			dir="ltr"
			required
		/>
	)
}

function RegenerateForm({ result, busy }: { result: Result; busy: boolean }) {
	const { t } = useTranslation()
	const [form, fields] = useValidatedForm(loadCodeSchema, { id: 'two-factor-regenerate', lastResult: result })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass} aria-labelledby="two-factor-regenerate-heading">
			<h3 id="two-factor-regenerate-heading" className={styles.sectionTitle}>
				{t('twoFactor.regenerate.title')}
			</h3>
			<p>{t('twoFactor.regenerate.lead')}</p>
			<FormErrors id={form.errorId} errors={form.errors} />
			<AppCodeField field={fields.code} />
			<div>
				<Button type="submit" variant="outline" name="intent" value="two-factor-regenerate" disabled={busy}>
					{t('twoFactor.regenerate.submit')}
				</Button>
			</div>
		</Form>
	)
}

function DisableForm({ result, busy }: { result: Result; busy: boolean }) {
	const { t } = useTranslation()
	const [form, fields] = useValidatedForm(loadDisableSchema, { id: 'two-factor-disable', lastResult: result })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass} aria-labelledby="two-factor-disable-heading">
			<h3 id="two-factor-disable-heading" className={styles.sectionTitle}>
				{t('twoFactor.disable.title')}
			</h3>
			<p>{t('twoFactor.disable.lead')}</p>
			<FormErrors id={form.errorId} errors={form.errors} />
			<PasswordField label={t('auth.fields.currentPassword')} field={fields.password} autoComplete="current-password" result={result} />
			<Field label={t('twoFactor.fields.codeOrRecovery')} field={fields.code} type="text" autoComplete="one-time-code" dir="ltr" maxLength={40} required />
			<div>
				<Button type="submit" variant="destructive" name="intent" value="two-factor-disable" disabled={busy}>
					{t('twoFactor.disable.submit')}
				</Button>
			</div>
		</Form>
	)
}
