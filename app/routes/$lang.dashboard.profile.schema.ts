import { z } from 'zod'
import { currentPassword, newPassword, text, withConfirmation } from '#app/utils/forms.ts'
import { themeNames } from '#common/theme.ts'
import { locales } from '#locales/languages.ts'

export const profileSchema = z.object({
	name: text(80),
	locale: z.enum(locales, { required_error: 'forms.required', invalid_type_error: 'forms.invalid' }),
	theme: z.enum(themeNames, { required_error: 'forms.required', invalid_type_error: 'forms.invalid' }),
})

export const passwordSchema = withConfirmation({
	currentPassword,
	password: newPassword,
	confirmPassword: z.string({ required_error: 'forms.required' }),
})

/** A code of the authenticator app, as apps show it (`123 456` too). */
const totpCode = z
	.string({ required_error: 'forms.required' })
	.trim()
	.regex(/^\d{3}[\s-]?\d{3}$/, 'twoFactor.codeFormat')

/** Confirming the set-up; the secret and its URI come back so that a wrong code can show them again. */
export const twoFactorEnableSchema = z.object({ code: totpCode, secret: z.string().max(64).optional(), uri: z.string().max(1000).optional() })

export const twoFactorCodeSchema = z.object({ code: totpCode })

/** Turning it off: the password, and a code of the app or a recovery code in one field. */
export const twoFactorDisableSchema = z.object({ password: currentPassword, code: text(40) })
