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
