import { z } from 'zod'
import { currentPassword, email } from '#app/utils/forms.ts'

export const schema = z.object({ email, password: currentPassword, redirect: z.string().optional() })
