import { z } from 'zod'
import { email } from '#app/utils/forms.ts'

const number = (minimum: number, maximum: number) =>
	z.number({ required_error: 'forms.required', invalid_type_error: 'forms.number' }).int('forms.number').min(minimum, 'forms.range').max(maximum, 'forms.range')

export const inviteSchema = z.discriminatedUnion('method', [
	z.object({ method: z.literal('link'), role: z.enum(['agent', 'admin']), expiresInDays: number(1, 30), maxUses: number(1, 1000).optional() }),
	z.object({ method: z.literal('email'), role: z.enum(['agent', 'admin']), expiresInDays: number(1, 30), email }),
])
