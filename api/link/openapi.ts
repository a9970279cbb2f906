import { z } from 'zod'
import { attachmentParams } from '#api/attachments/router.ts'
import { type ApiDocs } from '#api/http/openapi.ts'
import { linkParams, postVisitorMessageBody, visitorRealtimeAuthBody, visitorThreadQuery } from './schemas.ts'

/** `/v1/link/{slug}` (router.ts): the public side of a link channel. An unknown or switched-off slug answers 404 everywhere. */
export function documentLink(docs: ApiDocs) {
	docs.add({ method: 'get', path: '/:slug', summary: 'A link page: the workspace’s name, greeting and what it asks', caller: 'anyone', params: linkParams, responses: { 200: 'The page.' } })
	docs.add({
		method: 'get',
		path: '/:slug/messages',
		summary: 'The visitor’s own thread',
		caller: 'visitor',
		params: linkParams,
		query: visitorThreadQuery,
		responses: { 200: '`{ conversationId, messages, olderCursor }`; no conversation yet is `conversationId: null` and no messages.' },
	})
	docs.add({
		method: 'post',
		path: '/:slug/messages',
		summary: 'Write to the team',
		description: 'The first message opens the visitor’s conversation; the name and e-mail are required when the page asks for them.',
		caller: 'visitor',
		params: linkParams,
		body: postVisitorMessageBody,
		responses: { 201: '`{ conversationId, message }`.' },
		errors: [429],
	})
	docs.add({
		method: 'get',
		path: '/:slug/attachments/:attachmentId',
		summary: 'A file the team sent in the visitor’s conversation',
		caller: 'visitor',
		params: [linkParams, attachmentParams],
		responses: { 200: { description: 'The file, in its own media type.', type: 'application/octet-stream', schema: z.string().openapi({ format: 'binary' }) } },
	})
	docs.add({
		method: 'post',
		path: '/:slug/realtime/auth',
		summary: 'Sign the visitor’s realtime channel (pusher-js channel authorisation)',
		caller: 'visitor',
		params: linkParams,
		body: visitorRealtimeAuthBody,
		responses: { 200: 'Pusher’s `{ auth }`.' },
		errors: [403],
	})
}
