import { z } from 'zod'
import { conversationStatuses, priorities } from '#api/db/schema.ts'
import { maximumLimit } from '#api/http/pagination.ts'
import { conversationSorts, decodeCursor } from './cursor.ts'

export const limits = { body: 4096, search: 100, bulk: 100, labels: 100, page: 25, messages: 30, others: 10 }

// A query parameter left empty by a GET form is one not given.
const optionalParameter = <Schema extends z.ZodTypeAny>(schema: Schema) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())
const queryLimit = (fallback: number) => optionalParameter(z.coerce.number().int().min(1).max(maximumLimit)).transform((limit) => limit ?? fallback)
const uuid = () =>
	z
		.string()
		.uuid()
		.transform((id) => id.toLowerCase())

/** `#1024` in a path: anything else names no conversation (404). */
export const conversationParams = z.object({
	id: z.string().uuid(),
	number: z
		.string()
		.regex(/^\d{1,9}$/)
		.transform(Number),
})

export const messageParams = conversationParams.extend({ messageId: z.string().regex(/^\d{1,18}$/) })

export const listConversationsQuery = z
	.object({
		status: optionalParameter(z.enum([...conversationStatuses, 'all'])).transform((status) => status ?? 'open'),
		assignee: optionalParameter(z.union([z.enum(['me', 'unassigned', 'all']), uuid()])).transform((assignee) => assignee ?? 'all'),
		channelId: optionalParameter(uuid()),
		/** One contact's conversations (the contact panel lists them). */
		contactId: optionalParameter(uuid()),
		labelId: optionalParameter(uuid()),
		/** One team's conversations, or (`mine`) those of the reader's teams. */
		team: optionalParameter(
			z
				.string()
				.refine((team) => team === 'mine' || z.string().uuid().safeParse(team).success, 'inbox:validation.team')
				.transform((team) => team.toLowerCase()),
		),
		priority: optionalParameter(z.enum(priorities)),
		search: optionalParameter(z.string().trim().max(limits.search)).transform((search) => search || undefined),
		sort: optionalParameter(z.enum(conversationSorts)).transform((sort) => sort ?? 'activity'),
		after: optionalParameter(z.string().max(400)),
		limit: queryLimit(limits.page),
	})
	// Other parameters are ignored, as a page's own (`?conversation=1024`) may come along.
	.transform((query, context) => {
		if (query.after === undefined) return { ...query, after: undefined }
		const after = decodeCursor(query.after)
		// A cursor of another sort would start the page at a meaningless place.
		if (!after || after.sort !== query.sort) {
			context.addIssue({ code: 'custom', path: ['after'], message: 'inbox:validation.cursor' })
			return z.NEVER
		}
		return { ...query, after }
	})

export type ListConversationsQuery = z.output<typeof listConversationsQuery>

/** `?before={messageId}&limit`: the messages older than `before`, newest page first. */
export const listMessagesQuery = z
	.object({
		before: optionalParameter(z.string().regex(/^\d{1,18}$/, 'inbox:validation.cursor')),
		limit: queryLimit(limits.messages),
	})
	.strict()

export const messageBody = z.string().trim().min(1).max(limits.body)

export const createMessageBody = z.discriminatedUnion('kind', [
	z.object({ kind: z.enum(['text', 'note']), body: messageBody }).strict(),
	// An approved template (WhatsApp, outside its 24-hour window): by name and language, with its body's parameters in order.
	z
		.object({
			kind: z.literal('template'),
			template: z
				.object({
					name: z.string().trim().min(1).max(512),
					language: z.string().trim().min(2).max(15),
					parameters: z.array(z.string().trim().min(1).max(1024)).max(20),
				})
				.strict(),
		})
		.strict(),
])

export type CreateMessageBody = z.output<typeof createMessageBody>

/** The fields of a reply or note sent with a file (multipart): the text is then its caption, and may be empty. */
export const messageWithFileBody = z.object({ kind: z.enum(['text', 'note']), body: z.string().trim().max(limits.body).default('') }).strict()

// A snooze ends in the future; checked when the request arrives.
const snoozedUntil = z.coerce.date()

type StatusChange = { status?: (typeof conversationStatuses)[number]; snoozedUntil?: Date | null }

/** `snoozed` needs a future `snoozedUntil`, which no other status takes. */
function checkSnooze(body: StatusChange, context: z.RefinementCtx) {
	if (body.status === 'snoozed' && !body.snoozedUntil)
		context.addIssue({ code: 'custom', path: ['snoozedUntil'], message: 'inbox:validation.snoozedUntilRequired' })
	if (body.status !== 'snoozed' && body.snoozedUntil)
		context.addIssue({ code: 'custom', path: ['snoozedUntil'], message: 'inbox:validation.snoozedUntilWithoutSnooze' })
	if (body.snoozedUntil && body.snoozedUntil.getTime() <= Date.now())
		context.addIssue({ code: 'custom', path: ['snoozedUntil'], message: 'inbox:validation.snoozedUntilPast' })
}

export const updateConversationBody = z
	.object({
		status: z.enum(conversationStatuses).optional(),
		snoozedUntil: snoozedUntil.nullable().optional(),
		assigneeId: uuid().nullable().optional(),
		/** A team of the workspace; null: none. */
		teamId: uuid().nullable().optional(),
		priority: z.enum(priorities).optional(),
	})
	.strict()
	.superRefine(checkSnooze)

export type ConversationChanges = z.output<typeof updateConversationBody>

export const replaceLabelsBody = z
	.object({
		labelIds: z
			.array(uuid())
			.max(limits.labels)
			.transform((ids) => [...new Set(ids)]),
	})
	.strict()

export const bulkActions = ['assign', 'team', 'status', 'addLabel', 'removeLabel'] as const

export const bulkBody = z
	.object({
		numbers: z
			.array(z.number().int().min(1).max(999_999_999))
			.min(1)
			.max(limits.bulk)
			.transform((numbers) => [...new Set(numbers)]),
		action: z.enum(bulkActions),
		assigneeId: uuid().nullable().optional(),
		teamId: uuid().nullable().optional(),
		status: z.enum(conversationStatuses).optional(),
		snoozedUntil: snoozedUntil.nullable().optional(),
		labelId: uuid().optional(),
	})
	.strict()
	.superRefine((body, context) => {
		const required = (field: 'assigneeId' | 'teamId' | 'status' | 'labelId') =>
			context.addIssue({ code: 'custom', path: [field], message: 'validation.required' })
		if (body.action === 'assign' && body.assigneeId === undefined) required('assigneeId')
		if (body.action === 'team' && body.teamId === undefined) required('teamId')
		if (body.action === 'status' && !body.status) required('status')
		if (body.action === 'status') checkSnooze(body, context)
		if ((body.action === 'addLabel' || body.action === 'removeLabel') && !body.labelId) required('labelId')
	})

export type BulkBody = z.output<typeof bulkBody>

/** A page of the thread (as listMessagesQuery) and how many of the contact's other conversations, latest first. */
export const viewConversationQuery = listMessagesQuery.extend({ others: queryLimit(limits.others) }).strict()
