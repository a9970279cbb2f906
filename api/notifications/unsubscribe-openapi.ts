import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { notificationKinds } from '#common/notifications.ts'
import { unsubscribeQuery, type UnsubscribeJson } from './unsubscribe.ts'

const unsubscribeAnswer = answerSchema<UnsubscribeJson>()(
	z
		.object({
			workspace: z.object({ id: z.string().uuid(), name: z.string() }),
			kinds: z.array(z.enum(notificationKinds)).openapi({ description: 'The kinds whose e-mails the link turns off.' }),
		})
		.openapi('NotificationUnsubscribe'),
)

/** `/v1/notifications/unsubscribe` (unsubscribe.ts): a notification mail's unsubscribe link, signed, no session. */
export function documentUnsubscribe(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'What a notification mail’s unsubscribe link turns off',
		description: 'Changes nothing (mail scanners follow links). A token that is not ours is a 400; a member who left the workspace, 404.',
		caller: 'anyone',
		query: unsubscribeQuery,
		responses: { 200: { description: 'The workspace and the kinds.', schema: unsubscribeAnswer } },
		errors: [404],
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Turn off the e-mails of a notification mail’s unsubscribe link (one-click, RFC 8058)',
		description:
			'The address of the mail’s `List-Unsubscribe` header: a mail client posts `List-Unsubscribe=One-Click` (form-encoded or multipart), which is not read; the signed `token` says whose e-mails of which kinds, in which workspace. Their e-mail preference turns off.',
		caller: 'anyone',
		query: unsubscribeQuery,
		body: {
			'application/x-www-form-urlencoded': z.object({ 'List-Unsubscribe': z.literal('One-Click') }),
			'application/json': z.object({}),
		},
		responses: { 200: { description: 'Turned off: the workspace and the kinds.', schema: unsubscribeAnswer } },
		errors: [404, 415],
	})
}
