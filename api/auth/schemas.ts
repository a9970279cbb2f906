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
