import { z } from 'zod'
import { currentPassword, email, text } from '#app/utils/forms.ts'

export const schema = z.object({ email, password: currentPassword, redirect: z.string().optional() })

/** The second step: a code of the authenticator app (`123 456` too), or a recovery code. */
export const twoFactorSchema = z.discriminatedUnion('method', [
	z.object({
		method: z.literal('code'),
		code: z
			.string({ required_error: 'forms.required' })
			.trim()
			.regex(/^\d{3}[\s-]?\d{3}$/, 'twoFactor.codeFormat'),
		redirect: z.string().optional(),
	}),
	z.object({ method: z.literal('recovery'), recoveryCode: text(40), redirect: z.string().optional() }),
])
