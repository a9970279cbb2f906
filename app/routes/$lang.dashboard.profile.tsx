import { getFormProps } from '@conform-to/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { getThemePreference } from '#app/.server/preferences.ts'
import { requireUser, type User } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { CopyButton } from '#app/components/channels/copy-button.tsx'
import { profileAction } from './$lang.dashboard.profile.server.ts'
import { listSessions, twoFactorState, type TwoFactorSetup } from '#app/.server/auth.ts'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { Field, FormErrors, PasswordField, SelectField, formClass, type ConformField } from '#app/components/ui/field.tsx'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { isolated } from '#app/utils/bidi.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import { themeNames } from '#common/theme.ts'
import { languageOf, languages } from '#locales/languages.ts'
import * as styles from './dashboard.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'

const loadProfileSchema = () => import('./$lang.dashboard.profile.schema.ts').then((module) => module.profileSchema)
const loadPasswordSchema = () => import('./$lang.dashboard.profile.schema.ts').then((module) => module.passwordSchema)
const loadEnableSchema = () => import('./$lang.dashboard.profile.schema.ts').then((module) => module.twoFactorEnableSchema)
const loadCodeSchema = () => import('./$lang.dashboard.profile.schema.ts').then((module) => module.twoFactorCodeSchema)
const loadDisableSchema = () => import('./$lang.dashboard.profile.schema.ts').then((module) => module.twoFactorDisableSchema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args, { workspace: 'optional' })
	const t = await serverT(locale)
	const [sessions, twoFactor] = await Promise.all([listSessions(api), twoFactorState(api)])
	// Formatted here, once, so the page shows the same words with or without JavaScript; in the
	// language's real tag (`fr`, not `fr-x`) and the workspace's time zone, as the other pages' dates.
	const when = dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: user.workspace?.timezone ?? 'UTC' })
	const devices = sessions.map((session) => ({
		id: session.id,
		current: session.current,
		name: [session.browser, session.system].filter(Boolean).join(' · ') || session.userAgent || t('profile.unknownDevice'),
		ip: session.ip,
		created: when.format(new Date(session.createdAt)),
		lastSeen: when.format(new Date(session.lastSeenAt)),
	}))
	const asked = new URL(args.request.url).searchParams.get('signOut')
	const signingOut: { others: true } | { others: false; id: string; name: string } | null =
		asked === 'others'
			? { others: true }
			: (devices
					.filter((device) => device.id === asked && !device.current)
					.map((device) => ({ others: false as const, id: device.id, name: device.name }))[0] ?? null)
	return {
		user,
		// The theme on screen (the appearance menu's cookie), which may not be the one saved in the profile.
		theme: (await getThemePreference(args.request)).theme,
		title: t('profile.title'),
		devices,
		signingOut,
		twoFactor: {
			enabled: twoFactor.enabled,
			since: twoFactor.enabledAt ? when.format(new Date(twoFactor.enabledAt)) : null,
			recoveryCodesLeft: twoFactor.recoveryCodesLeft,
		},
	}
}

export const action = (args: ActionFunctionArgs) => profileAction(args)

export default function Profile() {
	const { user, theme, title, devices, signingOut, twoFactor } = useLoaderData<typeof loader>()
	const actionData = useKeptActionData<typeof action>()
	const { t, i18n } = useTranslation()
	const navigation = useNavigation()
	const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
	const [profileForm, profile] = useValidatedForm(loadProfileSchema, {
		// Another theme put in use by the appearance menu shows here at once (a new id resets the form to its defaults).
		id: `profile-${theme}`,
		lastResult: actionData?.intent === 'profile' ? actionData.result : undefined,
		defaultValue: { name: user.name, locale: user.locale, theme },
	})
	const passwordResult = actionData?.intent === 'password' ? actionData.result : undefined
	const [passwordForm, password] = useValidatedForm(loadPasswordSchema, {
		id: 'password',
		lastResult: passwordResult,
	})
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{user.email}</p>
			</div>
			<section className={styles.section} aria-labelledby="profile-heading">
				<h2 id="profile-heading" className={styles.sectionTitle}>
					{t('profile.details')}
				</h2>
				<Form method="post" {...getFormProps(profileForm)} className={formClass}>
					<input type="hidden" name="intent" value="profile" />
					<input type="hidden" name="shownTheme" value={theme} />
					<FormErrors id={profileForm.errorId} errors={profileForm.errors} />
					<Field label={t('auth.fields.name')} field={profile.name} type="text" autoComplete="name" required dir="auto" />
					<SelectField label={t('profile.language')} field={profile.locale}>
						{languages.map((language) => (
							<option key={language.code} value={language.code} lang={language.tag}>
								{language.name}
							</option>
						))}
					</SelectField>
					<SelectField label={t('preferences.theme')} field={profile.theme}>
						{themeNames.map((name) => (
							<option key={name} value={name}>
								{t(`themes.${name}`)}
							</option>
						))}
					</SelectField>
					<Button type="submit" name="intent" value="profile" disabled={busy('profile')}>
						{t('profile.save')}
					</Button>
				</Form>
			</section>
			<section className={styles.section} aria-labelledby="password-heading">
				<h2 id="password-heading" className={styles.sectionTitle}>
					{t('profile.changePassword')}
				</h2>
				<Form method="post" {...getFormProps(passwordForm)} className={formClass}>
					<FormErrors id={passwordForm.errorId} errors={passwordForm.errors} />
					<PasswordField label={t('auth.fields.currentPassword')} field={password.currentPassword} autoComplete="current-password" result={passwordResult} />
					<PasswordField
						label={t('auth.fields.newPassword')}
						field={password.password}
						autoComplete="new-password"
						help={t('auth.passwordHelp')}
						result={passwordResult}
					/>
					<PasswordField label={t('auth.fields.confirmPassword')} field={password.confirmPassword} autoComplete="new-password" result={passwordResult} />
					<Button type="submit" name="intent" value="password" disabled={busy('password')}>
						{t('profile.updatePassword')}
					</Button>
				</Form>
			</section>
			<TwoFactorSection user={user} state={twoFactor} />
			<section className={styles.section} aria-labelledby="sessions-heading">
				<h2 id="sessions-heading" className={styles.sectionTitle}>
					{t('profile.sessionsTitle')}
				</h2>
				<p>{t('profile.sessionsLead')}</p>
				{signingOut ? (
					<Confirm
						title={signingOut.others ? t('profile.signOutOthersTitle') : t('profile.signOutTitle', { device: signingOut.name })}
						text={signingOut.others ? t('profile.signOutOthersText') : t('profile.signOutText')}
						fields={signingOut.others ? { intent: 'revoke-others' } : { intent: 'revoke-session', sessionId: signingOut.id }}
						confirm={signingOut.others ? t('profile.signOutOthers') : t('profile.signOut')}
						cancel={`/${i18n.language}/dashboard/profile`}
					/>
				) : null}
				<ul className={styles.sessionList} aria-labelledby="sessions-heading">
					{devices.map((device) => (
						<li key={device.id} className={styles.sessionItem} data-testid="session">
							{/* Browser, system, address and dates are each isolated: Latin and digits inside Arabic keep their order. */}
							<div>
								<strong>
									<bdi>{device.name}</bdi>
								</strong>
								{device.ip ? (
									<>
										{' · '}
										<bdi dir="ltr">{device.ip}</bdi>
									</>
								) : null}
								<div>{isolated((values) => t('profile.sessionTimes', values), { created: device.created, lastSeen: device.lastSeen })}</div>
							</div>
							{device.current ? (
								<span>{t('profile.thisDevice')}</span>
							) : (
								<Link to={`?signOut=${device.id}`} className={button.ghost}>
									{t('profile.signOut')}
								</Link>
							)}
						</li>
					))}
				</ul>
				{devices.length > 1 ? (
					<Link to="?signOut=others" className={button.destructive}>
						{t('profile.signOutOthers')}
					</Link>
				) : null}
			</section>
		</>
	)
}

/** The secret as people type it: groups of four. */
const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ')

/**
 * Two-step sign-in: turning it on (QR code, the secret written out, a first code), the recovery
 * codes shown once, new ones, turning it off. Every step is a form post, so it works without JavaScript.
 */
function TwoFactorSection({ user, state }: { user: User; state: { enabled: boolean; since: string | null; recoveryCodesLeft: number } }) {
	const actionData = useKeptActionData<typeof action>()
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
