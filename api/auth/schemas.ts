import { z } from 'zod'
import { passwordSchema } from '#common/password.ts'
import { themeNames } from '#common/theme.ts'
import { locales, type Locale } from '#locales/languages.ts'

// `min(1)` would read "at least 1 characters"; an empty name is simply missing.
const personName = z
	.string()
	.trim()
	.max(80)
	.refine((name) => name.length > 0, 'validation.required')

const emailAddress = z.string().trim().email().max(254)

// Sign-in checks a password, it does not judge it: old passwords may predate today's rule.
const anyPassword = z
	.string()
	.max(1024)
	.refine((password) => password.length > 0, 'validation.required')

const token = z
	.string()
	.trim()
	.max(512)
	.refine((value) => value.length > 0, 'validation.required')

const locale = z.enum(locales as [Locale, ...Locale[]])

export const registerSchema = z.object({
	name: personName,
	email: emailAddress,
	password: passwordSchema,
	locale: locale.optional(),
})

export const loginSchema = z.object({ email: emailAddress, password: anyPassword })

export const emailSchema = z.object({ email: emailAddress })

export const tokenSchema = z.object({ token })

export const resetPasswordSchema = z.object({ token, password: passwordSchema })

export const changePasswordSchema = z.object({ currentPassword: anyPassword, password: passwordSchema })

export const profileUpdateSchema = z
	.object({
		name: personName.optional(),
		locale: locale.optional(),
		theme: z.enum(themeNames).optional(),
	})
	.strict()

export const sessionParams = z.object({ sessionId: z.string().uuid() })

// A TOTP code as apps show it (`123 456` too); checked against the secret later, so any text is only refused here when it cannot be one.
const totpCode = z
	.string()
	.trim()
	.max(20)
	.refine((value) => value.length > 0, 'validation.required')
	.refine((value) => /^\d{6}$/.test(value.replace(/[\s-]/g, '')), 'auth:errors.codeFormat')

const recoveryCode = z
	.string()
	.trim()
	.max(40)
	.refine((value) => value.length > 0, 'validation.required')

export const twoFactorCodeSchema = z.object({ code: totpCode }).strict()

/** A TOTP code or a recovery code, one of the two. */
const codeOrRecovery = { code: totpCode.optional(), recoveryCode: recoveryCode.optional() }
const oneOf = (value: { code?: string; recoveryCode?: string }) => (value.code === undefined) !== (value.recoveryCode === undefined)

export const twoFactorDisableSchema = z
	.object({ password: anyPassword, ...codeOrRecovery })
	.strict()
	.refine(oneOf, { message: 'auth:errors.codeOrRecoveryCode', path: ['code'] })

export const twoFactorLoginSchema = z
	.object({ challenge: token, ...codeOrRecovery })
	.strict()
	.refine(oneOf, { message: 'auth:errors.codeOrRecoveryCode', path: ['code'] })
