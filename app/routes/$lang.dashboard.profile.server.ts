import { parseWithZod } from '@conform-to/zod'
import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import QRCode from 'qrcode'
import { ApiError } from '#app/.server/api.ts'
import { tokenAction } from '#app/.server/access-tokens.ts'
import * as account from '#app/.server/auth.ts'
import { type TwoFactorSetup } from '#app/.server/auth.ts'
import { localeCookie, themeCookie } from '#app/.server/cookies.ts'
import { postedOf, replyInvalid, replyWithApiError, type Posted } from '#app/.server/forms.ts'
import { getThemePreference } from '#app/.server/preferences.ts'
import { refusalToast, requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { combineHeaders, formOf } from '#app/utils/http.ts'
import { safePath, withLocale } from '#app/utils/redirect.ts'
import { passwordSchema, profileSchema, twoFactorCodeSchema, twoFactorDisableSchema, twoFactorEnableSchema } from './$lang.dashboard.profile.schema.ts'

/**
 * The set-up again after a wrong first code, from the secret and URI the form sent back (the API
 * shows a secret once): the QR code is drawn again here. Anything but an otpauth URI of that
 * secret is dropped.
 */
export async function setupAgain(secret: string | undefined, uri: string | undefined): Promise<TwoFactorSetup | null> {
	if (!secret || !uri || !/^[A-Z2-7]+$/.test(secret) || !uri.startsWith('otpauth://totp/') || new URL(uri).searchParams.get('secret') !== secret) return null
	return { secret, uri, qrSvg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) }
}

const passwordFields = ['currentPassword', 'password', 'confirmPassword']

/** The profile's action: each form names its intent, answered by the function of that name below; the profile form names none. */
export async function profileAction(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args, { workspace: 'optional' })
	const formData = await formOf(request)
	// The personal tokens of the current workspace: the profile makes no other kind.
	if (formData.get('intent') === 'token-create') formData.set('kind', 'personal')
	const posted = await postedOf(request, formData, { locale, api }, `/${locale}/dashboard/profile`)
	switch (formData.get('intent')) {
		case 'token-create':
		case 'token-rename':
		case 'token-revoke':
			if (!user.workspace) return redirect(posted.here)
			return tokenAction(posted, user.workspace.id)
		case 'resend-verification':
			return resendVerification(posted)
		case 'revoke-session':
		case 'revoke-others':
			return signOutDevices(posted)
		case 'two-factor-setup':
			return setUpTwoFactor(posted)
		case 'two-factor-enable':
			return enableTwoFactor(posted)
		case 'two-factor-regenerate':
			return regenerateRecoveryCodes(posted)
		case 'two-factor-disable':
			return disableTwoFactor(posted)
		case 'password':
			return changePassword(posted)
		default:
			return saveProfile(posted)
	}
}

async function resendVerification({ api, formData, here, t, locale, request }: Posted) {
	const back = safePath(formData.get('redirectTo')) ?? here
	try {
		await account.resendVerification(api)
	} catch (error) {
		// Already verified (409), too many requests (429): said in a toast.
		return refusalToast(error, { locale, request, to: back, title: t('profile.resendFailed') })
	}
	return redirectWithToast(back, { type: 'success', title: t('profile.resent') })
}

/** One device signed out, or every other one (`revoke-others`). */
async function signOutDevices({ api, formData, here, t, locale, request }: Posted) {
	const others = formData.get('intent') === 'revoke-others'
	try {
		if (others) await account.revokeOtherSessions(api)
		else await account.revokeSession(api, String(formData.get('sessionId') ?? ''))
	} catch (error) {
		return refusalToast(error, { locale, request, to: here, title: t('profile.signOutFailed') })
	}
	return redirectWithToast(here, { type: 'success', title: t(others ? 'profile.signedOutOthers' : 'profile.signedOut') })
}

async function setUpTwoFactor({ api, here, t, locale, request }: Posted) {
	try {
		const setup = await account.setUpTwoFactor(api)
		return data({ intent: 'two-factor-setup' as const, setup })
	} catch (error) {
		return refusalToast(error, { locale, request, to: here, title: t('twoFactor.failed') })
	}
}

/** The first code from the app turns two-step sign-in on; a wrong one shows the same set-up again. */
async function enableTwoFactor({ api, formData, signedIn }: Posted) {
	const submission = parseWithZod(formData, { schema: twoFactorEnableSchema })
	const setup = await setupAgain(String(formData.get('secret') ?? ''), String(formData.get('uri') ?? ''))
	const beside = { with: { intent: 'two-factor-enable' as const, setup } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		const { recoveryCodes } = await account.enableTwoFactor(api, submission.value.code)
		return data({ intent: 'two-factor-enable' as const, recoveryCodes, enabled: true })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
}

async function regenerateRecoveryCodes({ api, formData, signedIn }: Posted) {
	const submission = parseWithZod(formData, { schema: twoFactorCodeSchema })
	const beside = { with: { intent: 'two-factor-regenerate' as const } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		const { recoveryCodes } = await account.regenerateRecoveryCodes(api, submission.value.code)
		return data({ intent: 'two-factor-regenerate' as const, recoveryCodes })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
}

/** A code field that holds either a code of the app or a recovery code: sent to the API as the one it looks like. */
function codeOrRecovery(code: string) {
	return /^\d{3}[\s-]?\d{3}$/.test(code) ? { code } : { recoveryCode: code }
}

async function disableTwoFactor({ api, formData, here, t, signedIn }: Posted) {
	const submission = parseWithZod(formData, { schema: twoFactorDisableSchema })
	const beside = { with: { intent: 'two-factor-disable' as const }, hideFields: ['password'] }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		await account.disableTwoFactor(api, { password: submission.value.password, ...codeOrRecovery(submission.value.code) })
	} catch (error) {
		// The page has one field for both kinds of code: the API's word on a recovery code goes beside it.
		if (error instanceof ApiError) {
			const fields = (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields
			if (fields?.recoveryCode) fields.code = fields.recoveryCode
			delete fields?.recoveryCode
		}
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
	return redirectWithToast(here, { type: 'success', title: t('twoFactor.turnedOff'), description: t('twoFactor.othersSignedOutOff') })
}

async function changePassword({ api, formData, here, t, signedIn }: Posted) {
	const submission = parseWithZod(formData, { schema: passwordSchema })
	const beside = { with: { intent: 'password' as const }, hideFields: passwordFields }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		await account.changePassword(api, submission.value.currentPassword, submission.value.password)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
	return redirectWithToast(here, { type: 'success', title: t('profile.passwordChanged') })
}

/** The name, language and theme; the page then follows the saved preferences. */
async function saveProfile({ api, formData, here, request, signedIn }: Posted) {
	const submission = parseWithZod(formData, { schema: profileSchema })
	const beside = { with: { intent: 'profile' as const } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	// The form shows the theme in use (`shownTheme`): only another one chosen there is saved and put in use, so saving a new name keeps the theme.
	const { theme, ...rest } = submission.value
	const themeChosen = theme !== formData.get('shownTheme')
	let user
	try {
		user = await account.updateProfile(api, themeChosen ? submission.value : rest)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
	// The page follows the saved preferences: its language, and the theme kept in the cookie.
	const headers = combineHeaders(
		themeChosen ? { 'Set-Cookie': await themeCookie.serialize({ ...(await getThemePreference(request)), theme: user.theme }) } : null,
		{ 'Set-Cookie': localeCookie.serialize(submission.value.locale) },
	)
	const saved = await serverT(submission.value.locale)
	return redirectWithToast(withLocale(here, submission.value.locale), { type: 'success', title: saved('profile.saved') }, { headers })
}
