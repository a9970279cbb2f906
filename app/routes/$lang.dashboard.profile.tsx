import { getFormProps } from '@conform-to/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { getThemePreference } from '#app/.server/preferences.ts'
import { requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { profileAction } from './$lang.dashboard.profile.server.ts'
import { listAccessTokens, tokenAsked } from '#app/.server/access-tokens.ts'
import { ApiError } from '#app/.server/api-client.ts'
import { listSessions, twoFactorState } from '#app/.server/auth.ts'
import { NewTokenSecret, tokenAnswers, TokenForm, TokenList } from '#app/components/access-tokens/tokens.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { TwoFactorSection } from '#app/components/profile/two-factor.tsx'
import { Field, FormErrors, PasswordField, SelectField, formClass } from '#app/components/ui/field.tsx'
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

export const handle = { i18n: ['integrations'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** A list the API refuses this member (403: the workspace's two-step rule) is no list: its section is not shown. */
function noneWhenRefused(error: unknown): null {
	if (error instanceof ApiError && error.statusCode === 403) return null
	throw error
}

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args, { workspace: 'optional' })
	const t = await serverT(locale)
	const [sessions, twoFactor, tokens] = await Promise.all([
		listSessions(api),
		twoFactorState(api),
		// The personal tokens of the current workspace (the list also holds its bot tokens, for managers). None
		// where the workspace refuses the member until two-step sign-in is on: this page is where they turn it on.
		user.workspace ? listAccessTokens(api, user.workspace.id).catch(noneWhenRefused) : Promise.resolve(null),
	])
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
	const personalTokens = tokens?.filter((token) => token.kind === 'personal' && token.userId === user.id) ?? null
	return {
		user,
		locale,
		// The theme on screen (the appearance menu's cookie), which may not be the one saved in the profile.
		theme: (await getThemePreference(args.request)).theme,
		title: t('profile.title'),
		devices,
		signingOut,
		personalTokens,
		revokingTokenId: tokenAsked(args.request, 'revoke', personalTokens),
		renamingTokenId: tokenAsked(args.request, 'rename', personalTokens),
		twoFactor: {
			enabled: twoFactor.enabled,
			since: twoFactor.enabledAt ? when.format(new Date(twoFactor.enabledAt)) : null,
			recoveryCodesLeft: twoFactor.recoveryCodesLeft,
		},
	}
}

export const action = (args: ActionFunctionArgs) => profileAction(args)

export default function Profile() {
	const { user, locale, theme, title, devices, signingOut, twoFactor, personalTokens, revokingTokenId, renamingTokenId } = useLoaderData<typeof loader>()
	const kept = useKeptActionData<typeof action>()
	// A revocation refused says so in its confirmation; every other form's answer names its intent.
	const actionData = kept && 'intent' in kept ? kept : undefined
	const { reply: tokenReply, revokeError, renameResult } = tokenAnswers(kept)
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
			{user.workspace ? (
				<section className={styles.section} aria-labelledby="notifications-heading">
					<h2 id="notifications-heading" className={styles.sectionTitle}>
						{t('notifications:settings.profileHeading')}
					</h2>
					<p className={styles.pageLead}>{t('notifications:settings.profileLead')}</p>
					<p>
						<Link to={`/${locale}/dashboard/notifications/settings`} className={button.outline}>
							{t('notifications:settings.open')}
						</Link>
					</p>
				</section>
			) : null}
			{user.workspace && personalTokens ? (
				<section className={styles.section} aria-labelledby="personal-tokens-heading">
					<h2 id="personal-tokens-heading" className={styles.sectionTitle}>
						{t('integrations:tokens.personalHeading')}
					</h2>
					<p className={styles.pageLead}>{isolated((values) => t('integrations:tokens.personalLead', values), { workspace: user.workspace.name })}</p>
					{tokenReply?.created ? <NewTokenSecret created={tokenReply.created} /> : null}
					<TokenList
						tokens={personalTokens}
						headingId="personal-tokens-heading"
						here={`/${locale}/dashboard/profile`}
						revokingId={revokingTokenId}
						revokeError={revokeError}
						renamingId={renamingTokenId}
						renameResult={renameResult}
					/>
					<TokenForm kind="personal" reply={tokenReply} />
				</section>
			) : null}
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
