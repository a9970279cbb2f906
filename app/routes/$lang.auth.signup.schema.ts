import { z } from 'zod'
import { email, newPassword, text } from '#app/utils/forms.ts'

export const schema = z.object({ name: text(80), email, password: newPassword, redirect: z.string().optional() })
