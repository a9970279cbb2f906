import { z } from 'zod'
import { type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type InboxSummaryJson } from './json.ts'
import { bulkBody, conversationParams, createMessageBody, listConversationsQuery, listMessagesQuery, messageParams, messageWithFileBody, replaceLabelsBody, updateConversationBody } from './schemas.ts'

// The file itself is read by upload.ts (busboy), beside the fields the route validates.
const messageWithFile = messageWithFileBody.extend({
	file: z.string().openapi({ format: 'binary', description: 'The file, as the one part named `file` (up to UPLOAD_MAX_BYTES).' }),
})

const inboxSummary = z.object({ mine: z.number().int(), unassigned: z.number().int() }) satisfies z.ZodType<InboxSummaryJson>

/** `/v1/workspaces/{id}/conversations` (router.ts): the team inbox, for every member. */
export function documentConversations(docs: ApiDocs) {
	const conversation = 'The conversation, with its contact, channel, assignee and labels.'
	docs.add({
		method: 'get',
		path: '/',
		summary: 'A page of conversations',
		description: 'Keyset pages: `nextCursor` is the `after` of the following one; `counts` are the tabs’ (open, snoozed, resolved).',
		params: workspaceParams,
		query: listConversationsQuery,
		responses: { 200: '`{ conversations, nextCursor, counts }`.' },
	})
	docs.add({ method: 'get', path: '/summary', summary: 'The open conversations that are the caller’s, and those nobody’s', params: workspaceParams, responses: { 200: { description: 'The counts.', schema: inboxSummary } } })
	docs.add({ method: 'post', path: '/bulk', summary: 'Assign, change the status of, or label many conversations', params: workspaceParams, body: bulkBody, responses: { 200: '`{ updated }`: how many conversations.' }, errors: [422] })
	docs.add({ method: 'get', path: '/:number', summary: 'A conversation', params: conversationParams, responses: { 200: conversation } })
	docs.add({ method: 'patch', path: '/:number', summary: 'Change status, snooze, assignee or priority', params: conversationParams, body: updateConversationBody, responses: { 200: conversation }, errors: [422] })
	docs.add({ method: 'put', path: '/:number/labels', summary: 'Replace the labels of a conversation', params: conversationParams, body: replaceLabelsBody, responses: { 200: conversation } })
	docs.add({
		method: 'get',
		path: '/:number/messages',
		summary: 'A page of messages',
		params: conversationParams,
		query: listMessagesQuery,
		responses: { 200: '`{ messages, olderCursor }`: the latest page first, each oldest first; `olderCursor` is the `before` of the page before it.' },
	})
	docs.add({
		method: 'post',
		path: '/:number/messages',
		summary: 'Reply, write a note, or send an approved template',
		description: 'JSON, or `multipart/form-data` with a file (the text is then its caption). A reply goes out through the channel by a job: it is `pending` until sent.',
		params: conversationParams,
		body: { 'application/json': createMessageBody, 'multipart/form-data': messageWithFile },
		responses: { 201: 'The message.' },
		errors: [413, 415, 422],
	})
	docs.add({
		method: 'post',
		path: '/:number/messages/:messageId/retry',
		summary: 'Send a failed reply again',
		params: messageParams,
		responses: { 200: 'The message, pending again.' },
		errors: [409, 422],
	})
	docs.add({ method: 'post', path: '/:number/read', summary: 'Mark the conversation read for the caller', params: conversationParams, responses: { 204: 'Marked.' } })
}
