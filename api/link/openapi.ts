import { z } from 'zod'
import { attachmentAnswer } from '#api/attachments/openapi.ts'
import { attachmentParams } from '#api/attachments/router.ts'
import { messageDirections } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { type LinkPageJson, type VisitorMessageJson, type VisitorSurveyJson, type VisitorThreadJson } from './queries.ts'
import { linkParams, markReadBody, postVisitorMessageBody, rateConversationBody, visitorRealtimeAuthBody, visitorThreadQuery } from './schemas.ts'

const linkPage = answerSchema<LinkPageJson>()(
	z
		.object({
			slug: z.string(),
			name: z.string(),
			businessName: z.string(),
			logoColor: z.string(),
			greeting: z.string(),
			awayText: z.string().nullable().openapi({
				description:
					'The away auto-reply’s words in the page’s language (Accept-Language): the page shows them while closed, sent or not; null when it has none.',
			}),
			closed: z.boolean().openapi({ description: 'Out of business hours now (the channel’s, else the workspace’s).' }),
			backAt: z.string().datetime().nullable().openapi({ description: 'When closed, the next opening; null when open or never.' }),
			timezone: z.string().openapi({ description: 'The workspace’s time zone, to say `backAt` in.' }),
			askName: z.boolean(),
			askEmail: z.boolean(),
		})
		.openapi('LinkPage'),
)

const visitorMessage = answerSchema<VisitorMessageJson>()(
	z
		.object({
			id: z.string(),
			direction: z.enum(messageDirections),
			body: z.string(),
			senderName: z.string().nullable(),
			attachments: z.array(attachmentAnswer).openapi({ description: 'The team’s files, read at `/v1/link/{slug}/attachments/{attachmentId}`.' }),
			createdAt: z.string().datetime(),
		})
		.openapi('VisitorMessage'),
)

const visitorSurvey = answerSchema<VisitorSurveyJson>()(
	z
		.object({
			status: z.enum(['asked', 'rated', 'commented']).openapi({ description: '`asked`: the page shows the rating form; otherwise its thanks.' }),
			rating: z.number().int().min(1).max(5).nullable(),
		})
		.openapi('VisitorSurvey'),
)

const visitorThread = answerSchema<VisitorThreadJson>()(
	z.object({
		conversationId: z.string().uuid().nullable().openapi({ description: 'Null until the visitor’s first message.' }),
		survey: visitorSurvey.nullable().openapi({ description: 'The satisfaction survey of the resolved conversation, while it waits or was just answered.' }),
		messages: z.array(visitorMessage),
		olderCursor: z.string().nullable().openapi({ description: 'The `before` of the page of older messages; null at the start of the thread.' }),
	}),
)

/** `/v1/link/{slug}` (router.ts): the public side of a link channel. An unknown or switched-off slug answers 404 everywhere. */
export function documentLink(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/:slug',
		summary: 'A link page: the workspace’s name, greeting and what it asks',
		caller: 'anyone',
		params: linkParams,
		responses: { 200: { description: 'The page.', schema: linkPage } },
	})
	docs.add({
		method: 'get',
		path: '/:slug/messages',
		summary: 'The visitor’s own thread',
		caller: 'visitor',
		params: linkParams,
		query: visitorThreadQuery,
		responses: { 200: { description: 'A page of the thread, oldest first.', schema: visitorThread } },
	})
	docs.add({
		method: 'post',
		path: '/:slug/messages',
		summary: 'Write to the team',
		description: 'The first message opens the visitor’s conversation; the name and e-mail are required when the page asks for them.',
		caller: 'visitor',
		params: linkParams,
		body: postVisitorMessageBody,
		responses: {
			201: { description: 'The message, and the conversation it is in.', schema: z.object({ conversationId: z.string().uuid(), message: visitorMessage }) },
		},
		errors: [429],
	})
	docs.add({
		method: 'post',
		path: '/:slug/satisfaction',
		summary: 'Rate the resolved conversation',
		description:
			'Once per survey: 1 to 5 and an optional comment. No survey waiting (never asked, after 7 days, ended by a new message, already rated) is a 409.',
		caller: 'visitor',
		params: linkParams,
		body: rateConversationBody,
		responses: { 200: { description: 'The survey as answered.', schema: z.object({ survey: visitorSurvey }) } },
		errors: [409, 429],
	})
	docs.add({
		method: 'post',
		path: '/:slug/read',
		summary: 'Mark the team’s replies read',
		description:
			'The visitor has the team’s replies on screen up to `upTo` (a message id): those sent or delivered in their own conversation become read, and the agents’ threads show it.',
		caller: 'visitor',
		params: linkParams,
		body: markReadBody,
		responses: { 204: 'Read (or nothing to mark).' },
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
