import { z } from 'zod'
import { attachmentAnswer } from '#api/attachments/openapi.ts'
import { channelKinds, conversationStatuses, deliveryStatuses, messageDirections, messageKinds, priorities } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { labelSummary } from '#api/labels/openapi.ts'
import { contactSatisfaction } from '#api/contacts/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import {
	type ConversationJson,
	type ConversationListJson,
	type ConversationViewJson,
	type InboxSummaryJson,
	type MessageJson,
	type MessagePageJson,
} from './json.ts'
import {
	bulkBody,
	conversationParams,
	createMessageBody,
	listConversationsQuery,
	listMessagesQuery,
	messageParams,
	messageWithFileBody,
	replaceLabelsBody,
	updateConversationBody,
	viewConversationQuery,
} from './schemas.ts'

// The file itself is read by upload.ts (busboy), beside the fields the route validates.
const messageWithFile = messageWithFileBody.extend({
	file: z.string().openapi({ format: 'binary', description: 'The file, as the one part named `file` (up to UPLOAD_MAX_BYTES).' }),
})

const inboxSummary = answerSchema<InboxSummaryJson>()(
	z.object({
		mine: z.number().int(),
		unassigned: z.number().int(),
		myTeams: z.number().int().openapi({ description: 'Open conversations of the caller’s teams.' }),
		myTeamIds: z.array(z.string().uuid()).openapi({ description: 'The caller’s teams.' }),
	}),
)

const conversationAnswer = answerSchema<ConversationJson>()(
	z
		.object({
			id: z.string().uuid(),
			number: z.number().int().openapi({ description: 'Per workspace (`#1024`): the paths use it.' }),
			status: z.enum(conversationStatuses),
			snoozedUntil: z.string().datetime().nullable(),
			priority: z.enum(priorities),
			contact: z.object({
				id: z.string().uuid(),
				name: z.string(),
				email: z.string().nullable(),
				unverifiedEmail: z.string().nullable(),
				phone: z.string().nullable(),
				avatarColor: z.string(),
			}),
			channel: z.object({ id: z.string().uuid(), kind: z.enum(channelKinds), name: z.string() }),
			assignee: z.object({ id: z.string().uuid(), name: z.string() }).nullable(),
			team: z.object({ id: z.string().uuid(), name: z.string() }).nullable().openapi({ description: 'The team it belongs to; null: none.' }),
			labels: z.array(labelSummary),
			unreadCount: z.number().int().openapi({ description: 'Incoming messages the caller has not seen.' }),
			lastMessage: z
				.object({
					excerpt: z.string(),
					direction: z.enum(messageDirections),
					sender: z
						.object({ id: z.string().uuid(), name: z.string() })
						.nullable()
						.openapi({ description: 'The member who wrote it; null for the customer’s, a campaign’s or one sent from the provider’s own app.' }),
				})
				.nullable(),
			lastActivityAt: z.string().datetime(),
			firstResponseAt: z.string().datetime().nullable(),
			createdAt: z.string().datetime(),
		})
		.openapi('Conversation'),
)

const messageAnswer = answerSchema<MessageJson>()(
	z
		.object({
			id: z.string(),
			conversationId: z.string().uuid(),
			direction: z.enum(messageDirections),
			kind: z.enum(messageKinds),
			body: z.string(),
			activity: z
				.object({ key: z.string(), values: z.record(z.string()) })
				.nullable()
				.openapi({ description: 'For `activity` messages: a key of the `inbox` translations and its values.' }),
			sender: z
				.object({ id: z.string().uuid(), name: z.string() })
				.nullable()
				.openapi({ description: 'The member who wrote an outgoing message or note; null for the customer’s.' }),
			status: z.enum(deliveryStatuses).nullable().openapi({ description: 'Delivery of an outgoing message; null otherwise.' }),
			error: z.string().nullable(),
			attachments: z.array(attachmentAnswer),
			createdAt: z.string().datetime(),
		})
		.openapi('Message'),
)

const conversationList = answerSchema<ConversationListJson>()(
	z.object({
		conversations: z.array(conversationAnswer),
		nextCursor: z.string().nullable(),
		counts: z.object(
			Object.fromEntries(conversationStatuses.map((status) => [status, z.number().int()])) as Record<(typeof conversationStatuses)[number], z.ZodNumber>,
		),
		countsLimit: z
			.number()
			.int()
			.nullable()
			.openapi({ description: 'Null when the counts are exact; with a filter or a search, where each count stops (that many or more).' }),
	}),
)

const messagePage = answerSchema<MessagePageJson>()(z.object({ messages: z.array(messageAnswer), olderCursor: z.string().nullable() }))

const conversationView = answerSchema<ConversationViewJson>()(
	z.object({
		conversation: conversationAnswer,
		thread: messagePage,
		otherConversations: z.array(conversationAnswer),
		contactSatisfaction: contactSatisfaction.openapi({ description: 'The contact’s ratings, of the conversations the reader sees.' }),
	}),
)

/** `/v1/workspaces/{id}/conversations` (router.ts): the team inbox, for every member. */
export function documentConversations(docs: ApiDocs) {
	const conversation = { description: 'The conversation, with its contact, channel, assignee, team and labels.', schema: conversationAnswer }
	docs.add({
		method: 'get',
		path: '/',
		summary: 'A page of conversations',
		description:
			'Keyset pages: `nextCursor` is the `after` of the following one; `counts` are the tabs’ (open, pending, snoozed, resolved), with the same filters and search. `team` is a team’s id, or `mine` for the caller’s teams.',
		params: workspaceParams,
		query: listConversationsQuery,
		responses: { 200: { description: 'A page of conversations, and how many each status tab has.', schema: conversationList } },
	})
	docs.add({
		method: 'get',
		path: '/summary',
		summary: 'The open conversations that are the caller’s, those nobody’s and those of the caller’s teams',
		params: workspaceParams,
		responses: { 200: { description: 'The counts.', schema: inboxSummary } },
	})
	docs.add({
		method: 'post',
		path: '/bulk',
		summary: 'Assign, move to a team, change the status of, or label many conversations',
		params: workspaceParams,
		body: bulkBody,
		responses: { 200: { description: 'How many conversations were changed.', schema: z.object({ updated: z.number().int() }) } },
		errors: [422],
	})
	docs.add({ method: 'get', path: '/:number', summary: 'A conversation', params: conversationParams, responses: { 200: conversation } })
	docs.add({
		method: 'patch',
		path: '/:number',
		summary: 'Change status, snooze, assignee, team or priority',
		params: conversationParams,
		body: updateConversationBody,
		responses: { 200: conversation },
		errors: [422],
	})
	docs.add({
		method: 'put',
		path: '/:number/labels',
		summary: 'Replace the labels of a conversation',
		params: conversationParams,
		body: replaceLabelsBody,
		responses: { 200: conversation },
	})
	docs.add({
		method: 'get',
		path: '/:number/messages',
		summary: 'A page of messages',
		params: conversationParams,
		query: listMessagesQuery,
		responses: { 200: { description: 'The latest page first, each oldest first; `olderCursor` is the `before` of the page before it.', schema: messagePage } },
	})
	docs.add({
		method: 'get',
		path: '/:number/view',
		summary: 'A conversation as an inbox opens it',
		description:
			'The conversation, a page of its thread (as `GET /{number}/messages`), the `others` latest other conversations of its contact and the contact’s ratings, in one request. Reading it does not mark it read.',
		params: conversationParams,
		query: viewConversationQuery,
		responses: { 200: { description: 'The conversation, its thread and its contact’s other conversations.', schema: conversationView } },
	})
	docs.add({
		method: 'post',
		path: '/:number/messages',
		summary: 'Reply, write a note, or send an approved template',
		description:
			'JSON, or `multipart/form-data` with a file (the text is then its caption). A reply goes out through the channel by a job: it is `pending` until sent.',
		params: conversationParams,
		body: { 'application/json': createMessageBody, 'multipart/form-data': messageWithFile },
		responses: { 201: { description: 'The message.', schema: messageAnswer } },
		errors: [413, 415, 422],
	})
	docs.add({
		method: 'post',
		path: '/:number/messages/:messageId/retry',
		summary: 'Send a failed reply again',
		params: messageParams,
		responses: { 200: { description: 'The message, pending again.', schema: messageAnswer } },
		errors: [409, 422],
	})
	docs.add({
		method: 'post',
		path: '/:number/read',
		summary: 'Mark the conversation read for the caller',
		params: conversationParams,
		responses: { 204: 'Marked.' },
	})
}
