import { z } from 'zod'
import { notificationKinds } from '#common/notifications.ts'

const kinds = z.array(z.enum(notificationKinds, { errorMap: () => ({ message: 'forms.invalid' }) })).default([])

/**
 * The notification settings' form: `kinds` names the rows shown (an unchecked box sends nothing), each
 * medium's column the kinds checked in it, and the sound.
 */
export const notificationSettingsSchema = z.object({
	kinds: kinds.refine((shown) => shown.length > 0, { message: 'forms.invalid' }),
	app: kinds,
	email: kinds,
	push: kinds,
	sound: z.boolean().default(false),
})
