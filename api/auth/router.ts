import { type Request, Router } from 'express'
import { sql, type Kysely } from 'kysely'
import { recordInEveryWorkspace, recordSignIn } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { type Database, type User } from '#api/db/schema.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { isUniqueViolation } from '#api/db/errors.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { clientAddressKey, clientIp } from '#api/http/client-address.ts'
import { handler } from '#api/http/handler.ts'
import { consumeAll, createRateLimits } from '#api/http/rate-limit.ts'
import { parseRequest } from '#api/http/validate.ts'
import { queueMail } from '#api/mail/jobs.ts'
import { peekAccountToken, useAccountToken } from './account-tokens.ts'
import { createLoginThrottle } from './login-throttle.ts'
import { checkPassword, hashPassword, verifyPassword } from './password.ts'
import { profileOf } from './profile.ts'
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
import { createSession, listSessions, revokeAllSessions, revokeOtherSessions, revokeOwnSession, revokeSession } from './sessions.ts'
import { hashToken } from './tokens.ts'
import {
	acceptTotp,
	clearTwoFactor,
	issueChallenge,
	issuerOf,
	newTwoFactorSecret,
	peekChallenge,
	recoveryCodesLeft,
	replaceRecoveryCodes,
	spendChallenge,
	spendRecoveryCode,
} from './two-factor.ts'

const minute = 60
const hour = 60 * minute

/** The limits of the auth endpoints (failed sign-ins, sign-ups, reset mails, link guesses). */
export const authLimitRules = {
	loginIp: { points: 20, seconds: 15 * minute },
	registerIp: { points: 10, seconds: hour },
	forgotAddress: { points: 5, seconds: hour },
	forgotIp: { points: 20, seconds: hour },
	tokenIp: { points: 20, seconds: hour },
	resendUser: { points: 5, seconds: hour },
	// Codes of two-step sign-in, at login and in the profile: a success gives its point back.
	twoFactorUser: { points: 10, seconds: 15 * minute },
	twoFactorIp: { points: 30, seconds: 15 * minute },
}

// Counters are keyed by a hash: the table then holds no addresses and no key exceeds 64 characters.
function addressKey(email: string): string {
	return hashToken(email.toLowerCase())
}

function device(req: Request) {
	return { userAgent: req.get('user-agent') ?? null, ip: clientIp(req) }
}

const verifiedNow = sql<Date>`coalesce(email_verified_at, now())`

/** `/v1/auth/*`: accounts, sessions, mailed links and the signed-in user's profile. */
export function authRouter(context: ApiContext): Router {
	const { db, config, logger } = context
	const limits = createRateLimits(db, authLimitRules)
	const loginThrottle = createLoginThrottle(db)
	const signedIn = requireUser(db)
	const router = Router()

	async function openSession(trx: Kysely<Database>, req: Request, user: User, options: { secondFactor?: boolean } = {}) {
		const token = await createSession(trx, user.id, device(req), options)
		// The session opens in the user's current workspace: that workspace's log says so (docs/decisions/016-audit-log.md).
		if (user.currentWorkspaceId) await recordSignIn(trx, user, user.currentWorkspaceId)
		return token
	}

	async function signedInAnswer(req: Request, user: User) {
		const accessToken = await db.transaction().execute((trx) => openSession(trx, req, user))
		return { access_token: accessToken, user: await profileOf(db, user) }
	}

	/**
	 * The signed-in user's own password, asked again before a change: guessing it from a stolen session
	 * counts as failed sign-ins, so it is slowed the same way.
	 */
	async function confirmOwnPassword(req: Request & { user: User }, password: string, field: string) {
		const { user } = req
		const ip = clientAddressKey(req)
		await loginThrottle.attempt(user.email, ip)
		if (!(await verifyPassword(user.passwordHash, password))) {
			await loginThrottle.failed(user.email, ip)
			throw fieldError(req, 400, field, 'auth:errors.wrongCurrentPassword')
		}
		await loginThrottle.succeeded(user.email, ip)
	}

	/**
	 * Checks a TOTP code or a recovery code of the user; a wrong one is a 400 beside its field. Its
	 * callers count it against the user's limit (a point taken first, given back on success). In
	 * `trx`, so the caller's change and the code's use stand or fall together.
	 */
	async function checkSecondFactor(trx: Kysely<Database>, req: Request, user: User, input: { code?: string; recoveryCode?: string }) {
		const key = config.ENCRYPTION_KEY
		const accepted =
			input.code !== undefined ? await acceptTotp(trx, user, input.code, key) : await spendRecoveryCode(trx, user.id, input.recoveryCode ?? '', key)
		if (!accepted)
			throw fieldError(
				req,
				400,
				input.code !== undefined ? 'code' : 'recoveryCode',
				input.code !== undefined ? 'auth:errors.wrongCode' : 'auth:errors.wrongRecoveryCode',
			)
	}

	/**
	 * A change of the signed-in user's two-step settings: their code (or a recovery code) is checked,
	 * counted against their limit, in the transaction that makes the change.
	 */
	async function withSecondFactor<T>(
		req: Request & { user: User },
		input: { code?: string; recoveryCode?: string },
		change: (trx: Kysely<Database>) => Promise<T>,
	): Promise<T> {
		await limits.twoFactorUser.consume(req.user.id)
		const result = await db.transaction().execute(async (trx) => {
			await checkSecondFactor(trx, req, req.user, input)
			return change(trx)
		})
		await limits.twoFactorUser.reward(req.user.id)
		return result
	}

	router.post(
		'/register',
		handler(async (req, res) => {
			const input = parseRequest(req, 'body', registerSchema)
			await limits.registerIp.consume(clientAddressKey(req))
			const taken = await db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()
			if (taken) throw fieldError(req, 409, 'email', 'auth:errors.emailTaken')
			const passwordHash = await hashPassword(input.password)
			// The verification mail is queued with the account: the job queue sends it, and retries while SMTP refuses.
			const user = await db
				.transaction()
				.execute(async (trx) => {
					const created = await trx
						.insertInto('users')
						.values({ name: input.name, email: input.email, passwordHash, emailVerifiedAt: null, locale: input.locale ?? req.locale })
						.returningAll()
						.executeTakeFirstOrThrow()
					await queueMail(trx, { kind: 'verifyEmail', userId: created.id })
					return created
				})
				.catch((error: unknown) => {
					// Two sign-ups racing for one address: the second loses here rather than above.
					throw isUniqueViolation(error) ? fieldError(req, 409, 'email', 'auth:errors.emailTaken') : error
				})
			res.status(201).json(await signedInAnswer(req, user))
		}),
	)

	router.post(
		'/login',
		handler(async (req, res) => {
			const { email, password } = parseRequest(req, 'body', loginSchema)
			const ip = clientAddressKey(req)
			// Counted before checking, so parallel guesses cannot slip past the limit; a success gives its point back.
			await limits.loginIp.consume(ip)
			await loginThrottle.attempt(email, ip)
			const user = await db.selectFrom('users').selectAll().where('email', '=', email).where('bot', '=', false).executeTakeFirst()
			if (!(await checkPassword(user?.passwordHash, password)) || !user) {
				await loginThrottle.failed(email, ip)
				throw new HttpError(401, 'auth:errors.invalidCredentials')
			}
			await Promise.all([loginThrottle.succeeded(email, ip), limits.loginIp.reward(ip)])
			// Two-step sign-in: no session yet, a challenge for the second request (docs/decisions/017-two-step-sign-in.md).
			if (user.twoFactorEnabledAt) {
				const { challenge, expiresAt } = await issueChallenge(db, user.id)
				res.status(202).json({ twoFactorRequired: true, challenge, expiresAt: expiresAt.toISOString() })
				return
			}
			res.json(await signedInAnswer(req, user))
		}),
	)

	router.post(
		'/login/two-factor',
		handler(async (req, res) => {
			const input = parseRequest(req, 'body', twoFactorLoginSchema)
			const ip = clientAddressKey(req)
			await limits.twoFactorIp.consume(ip)
			const expired = new HttpError(401, 'auth:errors.challengeExpired')
			const user = await peekChallenge(db, input.challenge)
			if (!user) throw expired
			await limits.twoFactorUser.consume(user.id)
			const accessToken = await db.transaction().execute(async (trx) => {
				// Used up first: of two requests with one challenge, the second waits here and finds nothing.
				if (!(await spendChallenge(trx, input.challenge))) throw expired
				// A wrong code rolls the challenge back, so the user may try again until it expires.
				await checkSecondFactor(trx, req, user, input)
				return openSession(trx, req, user, { secondFactor: true })
			})
			await Promise.all([limits.twoFactorUser.reward(user.id), limits.twoFactorIp.reward(ip)])
			res.json({ access_token: accessToken, user: await profileOf(db, user) })
		}),
	)

	router.post(
		'/logout',
		signedIn,
		handler(async (req, res) => {
			await revokeSession(db, req.session.id)
			res.status(204).end()
		}),
	)

	router.get(
		'/sessions',
		signedIn,
		handler(async (req, res) => {
			res.json({ sessions: await listSessions(db, req.user.id, req.session.id) })
		}),
	)

	router.post(
		'/sessions/revoke-others',
		signedIn,
		handler(async (req, res) => {
			await revokeOtherSessions(db, req.user.id, req.session.id)
			res.status(204).end()
		}),
	)

	router.delete(
		'/sessions/:sessionId',
		signedIn,
		handler(async (req, res) => {
			const { sessionId } = parseRequest(req, 'params', sessionParams)
			// Another user's session is as unknown as a missing one.
			if (!(await revokeOwnSession(db, req.user.id, sessionId))) throw new HttpError(404, 'auth:errors.sessionNotFound')
			res.status(204).end()
		}),
	)

	router.post(
		'/forgot-password',
		handler(async (req, res) => {
			const { email } = parseRequest(req, 'body', emailSchema)
			await consumeAll([
				[limits.forgotIp, clientAddressKey(req)],
				[limits.forgotAddress, addressKey(email)],
			])
			res.status(202).json({ message: req.t('auth:messages.resetMailSent') })
			// After answering: neither the answer nor its timing may tell whether the address has an account.
			try {
				const user = await db.selectFrom('users').selectAll().where('email', '=', email).where('bot', '=', false).executeTakeFirst()
				if (user) await queueMail(db, { kind: 'resetPassword', userId: user.id })
			} catch (error) {
				logger.error({ err: error }, 'password reset mail not queued')
			}
		}),
	)

	router.post(
		'/validate-reset-token',
		handler(async (req, res) => {
			const { token } = parseRequest(req, 'body', tokenSchema)
			const ip = clientAddressKey(req)
			await limits.tokenIp.consume(ip)
			if (!(await peekAccountToken(db, token, 'reset_password'))) throw new HttpError(400, 'auth:errors.invalidResetToken')
			await limits.tokenIp.reward(ip)
			res.json({ valid: true })
		}),
	)

	router.post(
		'/reset-password',
		handler(async (req, res) => {
			const { token, password } = parseRequest(req, 'body', resetPasswordSchema)
			const ip = clientAddressKey(req)
			await limits.tokenIp.consume(ip)
			const invalid = new HttpError(400, 'auth:errors.invalidResetToken')
			// Checked before hashing, so a stale link does not cost an argon2 run.
			if (!(await peekAccountToken(db, token, 'reset_password'))) throw invalid
			const passwordHash = await hashPassword(password)
			const reset = await db.transaction().execute(async (trx) => {
				const userId = await useAccountToken(trx, token, 'reset_password')
				if (!userId) return false
				// Reading the mail proves the address, so it counts as verified.
				await trx.updateTable('users').set({ passwordHash, emailVerifiedAt: verifiedNow, updatedAt: new Date() }).where('id', '=', userId).execute()
				await revokeAllSessions(trx, userId)
				return true
			})
			if (!reset) throw invalid
			await limits.tokenIp.reward(ip)
			res.json({ message: req.t('auth:messages.passwordReset') })
		}),
	)

	router.post(
		'/verify-email',
		handler(async (req, res) => {
			const { token } = parseRequest(req, 'body', tokenSchema)
			const ip = clientAddressKey(req)
			await limits.tokenIp.consume(ip)
			const verified = await db.transaction().execute(async (trx) => {
				const userId = await useAccountToken(trx, token, 'verify_email')
				if (!userId) return false
				await trx.updateTable('users').set({ emailVerifiedAt: verifiedNow, updatedAt: new Date() }).where('id', '=', userId).execute()
				return true
			})
			if (!verified) throw new HttpError(400, 'auth:errors.invalidVerifyToken')
			await limits.tokenIp.reward(ip)
			res.json({ message: req.t('auth:messages.emailVerified') })
		}),
	)

	router.post(
		'/resend-verification',
		signedIn,
		handler(async (req, res) => {
			// 409 rather than a silent 202: the page can say there is nothing left to do.
			if (req.user.emailVerifiedAt) throw new HttpError(409, 'auth:errors.alreadyVerified')
			await limits.resendUser.consume(req.user.id)
			// A mail still waiting for SMTP is tried again now, not queued twice (api/mail/jobs.ts).
			await queueMail(db, { kind: 'verifyEmail', userId: req.user.id })
			res.status(202).json({ message: req.t('auth:messages.verificationSent') })
		}),
	)

	router.get(
		'/profile',
		signedIn,
		handler(async (req, res) => {
			res.json(await profileOf(db, req.user))
		}),
	)

	router.patch(
		'/profile',
		signedIn,
		handler(async (req, res) => {
			const changes = Object.fromEntries(Object.entries(parseRequest(req, 'body', profileUpdateSchema)).filter(([, value]) => value !== undefined))
			const user = Object.keys(changes).length
				? await db
						.updateTable('users')
						.set({ ...changes, updatedAt: new Date() })
						.where('id', '=', req.user.id)
						.returningAll()
						.executeTakeFirstOrThrow()
				: req.user
			res.json(await profileOf(db, user))
		}),
	)

	router.get(
		'/two-factor',
		signedIn,
		handler(async (req, res) => {
			const enabledAt = req.user.twoFactorEnabledAt
			res.json({
				enabled: enabledAt !== null,
				enabledAt: enabledAt?.toISOString() ?? null,
				recoveryCodesLeft: enabledAt ? await recoveryCodesLeft(db, req.user.id) : 0,
			})
		}),
	)

	router.post(
		'/two-factor/setup',
		signedIn,
		handler(async (req, res) => {
			if (req.user.twoFactorEnabledAt) throw new HttpError(409, 'auth:errors.twoFactorAlreadyOn')
			// A new set-up replaces an unfinished one: only the newest QR code works.
			const { secret, uri, qrSvg, sealed } = await newTwoFactorSecret(req.user, { issuer: issuerOf(config.PUBLIC_URL), key: config.ENCRYPTION_KEY })
			await db
				.updateTable('users')
				.set({ twoFactorSecret: sealed, twoFactorLastStep: null, updatedAt: new Date() })
				.where('id', '=', req.user.id)
				.where('twoFactorEnabledAt', 'is', null)
				.execute()
			res.json({ secret, uri, qrSvg })
		}),
	)

	router.post(
		'/two-factor/enable',
		signedIn,
		handler(async (req, res) => {
			const input = parseRequest(req, 'body', twoFactorCodeSchema)
			if (req.user.twoFactorEnabledAt) throw new HttpError(409, 'auth:errors.twoFactorAlreadyOn')
			if (!req.user.twoFactorSecret) throw new HttpError(409, 'auth:errors.twoFactorNotStarted')
			const recoveryCodes = await withSecondFactor(req, input, async (trx) => {
				const enabled = await trx
					.updateTable('users')
					.set({ twoFactorEnabledAt: new Date(), updatedAt: new Date() })
					.where('id', '=', req.user.id)
					.where('twoFactorEnabledAt', 'is', null)
					.executeTakeFirst()
				if (Number(enabled.numUpdatedRows) === 0) throw new HttpError(409, 'auth:errors.twoFactorAlreadyOn')
				// This session has just shown the code; every other one was opened with a password alone, and ends.
				await trx.updateTable('sessions').set({ secondFactorAt: new Date() }).where('id', '=', req.session.id).execute()
				await revokeOtherSessions(trx, req.user.id, req.session.id)
				await recordInEveryWorkspace(trx, req.user, 'twoFactor.enabled')
				return replaceRecoveryCodes(trx, req.user.id, config.ENCRYPTION_KEY)
			})
			res.json({ recoveryCodes })
		}),
	)

	router.post(
		'/two-factor/disable',
		signedIn,
		handler(async (req, res) => {
			const input = parseRequest(req, 'body', twoFactorDisableSchema)
			if (!req.user.twoFactorEnabledAt) throw new HttpError(409, 'auth:errors.twoFactorOff')
			// The password first, then the second factor.
			await confirmOwnPassword(req, input.password, 'password')
			await withSecondFactor(req, input, async (trx) => {
				await clearTwoFactor(trx, req.user.id)
				// Whoever else was signed in as this user now holds a password-only account's session: ended.
				await revokeOtherSessions(trx, req.user.id, req.session.id)
				await recordInEveryWorkspace(trx, req.user, 'twoFactor.disabled')
			})
			res.status(204).end()
		}),
	)

	router.post(
		'/two-factor/recovery-codes',
		signedIn,
		handler(async (req, res) => {
			const input = parseRequest(req, 'body', twoFactorCodeSchema)
			if (!req.user.twoFactorEnabledAt) throw new HttpError(409, 'auth:errors.twoFactorOff')
			const recoveryCodes = await withSecondFactor(req, input, (trx) => replaceRecoveryCodes(trx, req.user.id, config.ENCRYPTION_KEY))
			res.json({ recoveryCodes })
		}),
	)

	router.post(
		'/change-password',
		signedIn,
		handler(async (req, res) => {
			const { currentPassword, password } = parseRequest(req, 'body', changePasswordSchema)
			await confirmOwnPassword(req, currentPassword, 'currentPassword')
			const passwordHash = await hashPassword(password)
			await db.transaction().execute(async (trx) => {
				await trx.updateTable('users').set({ passwordHash, updatedAt: new Date() }).where('id', '=', req.user.id).execute()
				await trx.deleteFrom('accountTokens').where('userId', '=', req.user.id).where('purpose', '=', 'reset_password').where('usedAt', 'is', null).execute()
				await revokeOtherSessions(trx, req.user.id, req.session.id)
			})
			res.status(204).end()
		}),
	)

	return router
}
