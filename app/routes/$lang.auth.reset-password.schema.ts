import { z } from 'zod'
import { newPassword, withConfirmation } from '#app/utils/forms.ts'

export const schema = withConfirmation({
	token: z.string({ required_error: 'forms.required' }),
	password: newPassword,
	confirmPassword: z.string({ required_error: 'forms.required' }),
})
