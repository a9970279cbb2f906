import { z } from 'zod'
import { type ApiDocs } from '#api/http/openapi.ts'
import { userAnswer } from '#api/workspaces/openapi.ts'
import {
	changePasswordSchema,
	emailSchema,
	loginSchema,
	profileUpdateSchema,
	registerSchema,
	resetPasswordSchema,
	sessionParams,
	tokenSchema,
	twoFactorCodeSchema,
	twoFactorDisableSchema,
	twoFactorLoginSchema,
} from './schemas.ts'

// The words of `res.json({ message })` answers, in the caller's language.
const messageAnswer = z.object({ message: z.string() })

/** `/v1/auth` (router.ts). */
export function documentAuth(docs: ApiDocs) {
	const signedIn = {
		description: 'A new session’s token, for `Authorization: Bearer`, and the user.',
		schema: z.object({ access_token: z.string(), user: userAnswer }),
	}
	docs.add({
		method: 'post',
		path: '/register',
		summary: 'Create an account and sign in',
		caller: 'anyone',
		body: registerSchema,
		responses: { 201: signedIn },
		errors: [409, 429],
	})
	const challenge = {
		description:
			'The password is right and the user has two-step sign-in on: no session yet, a challenge for `POST /v1/auth/login/two-factor`, good for five minutes and once.',
		schema: z.object({ twoFactorRequired: z.literal(true), challenge: z.string(), expiresAt: z.string().datetime() }),
	}
	docs.add({
		method: 'post',
		path: '/login',
		summary: 'Sign in',
		caller: 'anyone',
		body: loginSchema,
		responses: { 200: signedIn, 202: challenge },
		errors: [401, 429],
	})
	docs.add({
		method: 'post',
		path: '/login/two-factor',
		summary: 'Sign in, second step: the challenge and a code',
		description:
			'With `code` (from the authenticator app, each accepted once) or `recoveryCode` (each usable once). A wrong code is a 400 and leaves the challenge usable; 401 when the challenge is unknown, expired or already used.',
		caller: 'anyone',
		body: twoFactorLoginSchema,
		responses: { 200: signedIn },
		errors: [401, 429],
	})
	docs.add({ method: 'post', path: '/logout', summary: 'End this session', responses: { 204: 'Signed out.' } })
	const sessionAnswer = z.object({
		id: z.string().uuid(),
		browser: z.string().nullable(),
		system: z.string().nullable(),
		userAgent: z.string().nullable(),
		ip: z.string().nullable(),
		createdAt: z.string(),
		lastSeenAt: z.string(),
		current: z.boolean(),
	})
	docs.add({
		method: 'get',
		path: '/sessions',
		summary: "The signed-in user's active sessions",
		description: 'Most recently used first; `current` marks the caller’s.',
		responses: { 200: { description: 'The sessions.', schema: z.object({ sessions: z.array(sessionAnswer) }) } },
	})
	docs.add({ method: 'post', path: '/sessions/revoke-others', summary: 'Sign out everywhere else', responses: { 204: 'Every other session is ended.' } })
	docs.add({
		method: 'delete',
		path: '/sessions/:sessionId',
		summary: 'End one of the user’s sessions',
		params: sessionParams,
		responses: { 204: 'Signed out there.' },
		errors: [404],
	})
	docs.add({
		method: 'post',
		path: '/forgot-password',
		summary: 'Mail a password reset link',
		description: 'Answers the same whether or not the address has an account.',
		caller: 'anyone',
		body: emailSchema,
		responses: { 202: { description: 'The link is on its way if the account exists.', schema: messageAnswer } },
		errors: [429],
	})
	docs.add({
		method: 'post',
		path: '/validate-reset-token',
		summary: 'Check a password reset link before asking for a new password',
		caller: 'anyone',
		body: tokenSchema,
		responses: { 200: { description: 'The link is usable.', schema: z.object({ valid: z.literal(true) }) } },
		errors: [429],
	})
	docs.add({
		method: 'post',
		path: '/reset-password',
		summary: 'Set a new password with a reset link',
		caller: 'anyone',
		body: resetPasswordSchema,
		responses: { 200: { description: 'Done; other sessions are ended.', schema: messageAnswer } },
		errors: [429],
	})
	docs.add({
		method: 'post',
		path: '/verify-email',
		summary: 'Verify the address with the mailed link',
		caller: 'anyone',
		body: tokenSchema,
		responses: { 200: { description: 'Verified.', schema: messageAnswer } },
		errors: [429],
	})
	docs.add({
		method: 'post',
		path: '/resend-verification',
		summary: 'Mail the verification link again',
		responses: { 202: { description: 'Queued: a mail still waiting for the mail server is tried again now.', schema: messageAnswer } },
		errors: [409, 429],
	})
	docs.add({
		method: 'get',
		path: '/profile',
		summary: "The signed-in user's profile",
		description: 'The user, their current workspace and their role in it.',
		responses: { 200: { description: 'The profile.', schema: userAnswer } },
	})
	docs.add({
		method: 'patch',
		path: '/profile',
		summary: 'Change the name, language or other profile fields',
		body: profileUpdateSchema,
		responses: { 200: { description: 'The updated profile.', schema: userAnswer } },
	})
	const recoveryCodes = z.object({ recoveryCodes: z.array(z.string()).length(10) })
	docs.add({
		method: 'get',
		path: '/two-factor',
		summary: 'Whether two-step sign-in is on',
		responses: {
			200: {
				description: 'Its state; never the secret.',
				schema: z.object({ enabled: z.boolean(), enabledAt: z.string().datetime().nullable(), recoveryCodesLeft: z.number().int() }),
			},
		},
	})
	docs.add({
		method: 'post',
		path: '/two-factor/setup',
		summary: 'Start setting up two-step sign-in',
		description:
			'A new secret (replacing an unfinished set-up), as an `otpauth://` URI and a QR code in SVG. Shown here only: confirm it with `/two-factor/enable`.',
		responses: {
			200: { description: 'What the authenticator app scans or is typed into.', schema: z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() }) },
		},
		errors: [409],
	})
	docs.add({
		method: 'post',
		path: '/two-factor/enable',
		summary: 'Turn two-step sign-in on with a first code',
		body: twoFactorCodeSchema,
		responses: { 200: { description: 'On; ten recovery codes, shown this once.', schema: recoveryCodes } },
		errors: [409, 429],
	})
	docs.add({
		method: 'post',
		path: '/two-factor/disable',
		summary: 'Turn two-step sign-in off',
		description: 'With the password and a code or a recovery code.',
		body: twoFactorDisableSchema,
		responses: { 204: 'Off; the secret and the recovery codes are gone.' },
		errors: [409, 429],
	})
	docs.add({
		method: 'post',
		path: '/two-factor/recovery-codes',
		summary: 'New recovery codes',
		description: 'With a code from the authenticator app; the earlier codes stop working.',
		body: twoFactorCodeSchema,
		responses: { 200: { description: 'Ten new recovery codes, shown this once.', schema: recoveryCodes } },
		errors: [409, 429],
	})
	docs.add({
		method: 'post',
		path: '/change-password',
		summary: 'Change the password',
		body: changePasswordSchema,
		responses: { 204: 'Changed; other sessions are ended.' },
		errors: [429],
	})
}
