import { z } from 'zod'
import { notificationKinds, notificationMedia } from '#common/notifications.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'

const notificationId = z.string().regex(/^\d{1,18}$/, 'validation.invalid')

export const notificationParams = z.object({ notificationId })

/** `?cursor&limit`: the page after `cursor` (the previous page's `nextCursor`), 1 to 50 a page (30 unless said). */
export const listNotificationsQuery = z.object({
	cursor: notificationId.optional(),
	limit: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).max(50).optional()).transform((limit) => limit ?? 30),
})

/** Some notifications by id, or every one of a conversation (opening it reads them). */
export const readNotificationsBody = z.union([
	z.object({ ids: z.array(notificationId).min(1).max(100) }).strict(),
	z.object({ conversationNumber: z.number().int().min(1).max(2_147_483_647) }).strict(),
])

const cells = z
	.object(
		Object.fromEntries(notificationMedia.map((medium) => [medium, z.boolean().optional()])) as Record<
			(typeof notificationMedia)[number],
			z.ZodOptional<z.ZodBoolean>
		>,
	)
	.strict()

/** Any cells of the kind × medium grid, and the sound; what is absent stays as it is. */
export const updatePreferencesBody = z
	.object({
		preferences: z
			.object(
				Object.fromEntries(notificationKinds.map((kind) => [kind, cells.optional()])) as Record<
					(typeof notificationKinds)[number],
					z.ZodOptional<typeof cells>
				>,
			)
			.strict()
			.optional(),
		sound: z.boolean().optional(),
	})
	.strict()

export { workspaceParams }
