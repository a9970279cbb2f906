import { z } from 'zod'
import { passwordSchema } from '#common/password.ts'

// Messages are translation keys (common namespace); the same schema runs in the browser and the action.

/** A required text field, trimmed. */
export const text = (maximum: number) => z.string({ required_error: 'forms.required' }).trim().min(1, 'forms.required').max(maximum, 'forms.tooLong')

/**
 * A field that must not be left empty, whose other rules the API checks and words: only what the
 * browser's `required` refused is refused first (spaces, lengths and patterns are the API's).
 */
export const filled = z.string({ required_error: 'forms.required' }).trim()

/** A checkbox: posted as `on` when ticked, not at all when not. */
export const ticked = z.boolean({ invalid_type_error: 'forms.invalid' }).default(false)

export const email = z.string({ required_error: 'forms.required' }).trim().email('forms.email').max(254, 'forms.tooLong')

/** A new password: the shared rule of docs/specification.txt, section 5. */
export const newPassword = z.string({ required_error: 'forms.required' }).pipe(passwordSchema)

/** A password being checked, not chosen: only required. */
export const currentPassword = z.string({ required_error: 'forms.required' }).max(128, 'forms.tooLong')

/** Two password fields that must match (reset, change). */
export function withConfirmation<Shape extends { password: z.ZodTypeAny; confirmPassword: z.ZodTypeAny }>(shape: Shape) {
	return z.object(shape).refine((value) => value.password === value.confirmPassword, {
		message: 'forms.passwordsDiffer',
		path: ['confirmPassword'],
	})
}
