import { z } from 'zod'
import { deliveryStatuses } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { apiChannelParams, apiMessageParams, deliveryReportBody, type DeliveryReportJson, inboundMessageBody, type ReceivedJson } from './schemas.ts'

// A file comes as a multipart form: the same fields, the contact's as `contact.externalId`, `contact.name`…, and the one part named `file`.
const messageWithFile = z.object({
	'contact.externalId': z.string(),
	'contact.name': z.string().optional(),
	'contact.email': z.string().optional(),
	'contact.phone': z.string().optional(),
	text: z.string().optional().openapi({ description: 'The file’s caption.' }),
	externalId: z.string().optional(),
	file: z.string().openapi({ format: 'binary', description: 'The file, as the one part named `file` (up to UPLOAD_MAX_BYTES).' }),
})

const received = answerSchema<ReceivedJson>()(
	z
		.object({
			conversationId: z.string().uuid(),
			conversationNumber: z.number().int(),
			messageId: z.string(),
			duplicate: z.boolean().openapi({ description: 'The `externalId` was known: nothing new was recorded, the same ids are answered (200).' }),
		})
		.openapi('ApiChannelReceived'),
)

const reported = answerSchema<DeliveryReportJson>()(z.object({ messageId: z.string(), status: z.enum(deliveryStatuses) }))

/** `/v1/workspaces/{id}/channels/{channelId}/messages` (router.ts): an integration feeds an API channel. */
export function documentApiChannel(docs: ApiDocs) {
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Hand over a customer’s message (API channel)',
		description:
			'For an integration (an access token allowed to write conversations) or a member. The customer is known by their `contact.externalId` on the channel (a new one is a new contact; their e-mail is kept as a claim, as a chat link visitor’s); the message goes where a provider’s would: their open conversation or a new numbered one, the rules, assignment, auto-replies, the satisfaction survey, notifications and reports. The same `externalId` again is recorded once. Any channel that is not one of the workspace’s API channels is 404; a switched-off one 422. The team’s replies reach the channel’s callback URL as signed webhooks.',
		params: apiChannelParams,
		body: { 'application/json': inboundMessageBody, 'multipart/form-data': messageWithFile },
		responses: {
			201: { description: 'Recorded.', schema: received },
			200: { description: 'Already recorded under this `externalId`.', schema: received },
		},
		errors: [413, 422],
	})
	docs.add({
		method: 'post',
		path: '/:messageId/status',
		summary: 'Report what became of a reply (API channel)',
		description:
			'The customer got the team’s reply (`delivered`), read it (`read`), or never will (`failed`, with the `error` the team reads beside it). A status only moves forward: a late `delivered` after `read` changes nothing. Only the channel’s outgoing replies (404 otherwise).',
		params: apiMessageParams,
		body: deliveryReportBody,
		responses: { 200: { description: 'The reply’s status now.', schema: reported } },
	})
}
