import { z } from 'zod'

/**
 * Automation rules (issue 31): what runs a rule, what it checks and what it does. One schema,
 * read by the API (which validates and runs rules) and the settings page (which builds them), so
 * the two always agree. Messages are translation keys of the `automation` namespace.
 */

export const automationLimits = { name: 80, conditions: 20, actions: 20, words: 20, word: 100, body: 4096, values: 50, value: 200 } as const

/** What runs a rule. `conversation.resolved` is also a status change: a rule on either runs. */
export const automationEvents = [
	'conversation.created',
	'message.received',
	'conversation.statusChanged',
	'conversation.assigneeChanged',
	'conversation.teamChanged',
	'conversation.labelsChanged',
	'conversation.priorityChanged',
	'conversation.resolved',
] as const
export type AutomationEvent = (typeof automationEvents)[number]

/** A rule's own actions may run rules again, this deep at most; deeper, the run log says it stopped. */
export const automationMaxDepth = 3

const channelKinds = ['whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'link', 'api'] as const
const statuses = ['open', 'pending', 'resolved', 'snoozed'] as const
const priorities = ['none', 'low', 'medium', 'high', 'urgent'] as const

const id = z.string().uuid('automation:errors.unknown')
const ids = z.array(id).min(1, 'automation:errors.chooseOne').max(automationLimits.values)
const text = (max: number) => z.string().trim().min(1, 'automation:errors.required').max(max, 'automation:errors.tooLong')

/** What a rule checks; `match: 'all'` needs every one, `'any'` one. */
export const automationCondition = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('channel'), op: z.enum(['is', 'isNot']), channelIds: ids }),
	z.object({ kind: z.literal('channelKind'), op: z.enum(['is', 'isNot']), kinds: z.array(z.enum(channelKinds)).min(1, 'automation:errors.chooseOne') }),
	/** The customer's message has any of the words, or none of them; folded as search folds (case, accents, Arabic forms). */
	z.object({
		kind: z.literal('messageContains'),
		op: z.enum(['any', 'none']),
		words: z.array(text(automationLimits.word)).min(1, 'automation:errors.chooseOne').max(automationLimits.words),
	}),
	z.object({ kind: z.literal('contactLabel'), op: z.enum(['has', 'lacks']), labelId: id }),
	/** `name`, `email`, `phone`, `company` or a custom attribute's key. */
	z.object({
		kind: z.literal('contactAttribute'),
		attribute: text(automationLimits.value),
		op: z.enum(['equals', 'contains']),
		value: text(automationLimits.value),
	}),
	z.object({
		kind: z.literal('emailDomain'),
		op: z.enum(['is', 'isNot']),
		domains: z.array(text(automationLimits.value)).min(1, 'automation:errors.chooseOne').max(automationLimits.values),
	}),
	z.object({ kind: z.literal('conversationLabel'), op: z.enum(['has', 'lacks']), labelId: id }),
	z.object({ kind: z.literal('priority'), op: z.enum(['is', 'isNot']), priorities: z.array(z.enum(priorities)).min(1, 'automation:errors.chooseOne') }),
	z.object({ kind: z.literal('status'), op: z.enum(['is', 'isNot']), statuses: z.array(z.enum(statuses)).min(1, 'automation:errors.chooseOne') }),
	/** `none`: no team; `is`/`isNot`: one of the teams. */
	z.object({ kind: z.literal('team'), op: z.enum(['none', 'is', 'isNot']), teamIds: z.array(id).max(automationLimits.values).default([]) }),
	/** `none`: unassigned; `anyone`: assigned; `is`: one of these agents. */
	z.object({ kind: z.literal('assignee'), op: z.enum(['none', 'anyone', 'is']), userIds: z.array(id).max(automationLimits.values).default([]) }),
	/** The channel's business hours (else the workspace's) at the event's time. */
	z.object({ kind: z.literal('businessHours'), op: z.enum(['inside', 'outside']) }),
	/** How many messages the customer has written in the conversation: `equals 1` is their first. */
	z.object({ kind: z.literal('messageCount'), op: z.enum(['equals', 'atLeast', 'atMost']), value: z.coerce.number().int().min(0).max(1_000_000) }),
])
export type AutomationCondition = z.infer<typeof automationCondition>
export type AutomationConditionKind = AutomationCondition['kind']

/** What a rule does, in order. */
export const automationAction = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('assignTeam'), teamId: id }),
	z.object({ kind: z.literal('assignAgent'), userId: id }),
	/** Through the conversation's team's auto-assignment (its queue when no one has room). */
	z.object({ kind: z.literal('autoAssign') }),
	z.object({ kind: z.literal('unassign') }),
	z.object({ kind: z.literal('addLabels'), labelIds: ids }),
	z.object({ kind: z.literal('removeLabels'), labelIds: ids }),
	z.object({ kind: z.literal('setPriority'), priority: z.enum(priorities) }),
	z.object({ kind: z.literal('setStatus'), status: z.enum(['open', 'pending', 'resolved']) }),
	/** For `minutes`, or (null) until the next opening of business hours. */
	z.object({
		kind: z.literal('snooze'),
		minutes: z.coerce
			.number()
			.int()
			.min(1)
			.max(60 * 24 * 365)
			.nullable(),
	}),
	/** To the customer, through the channel's delivery; the campaigns' variables (`{{name}}`, `{{company | fallback}}`). */
	z.object({ kind: z.literal('sendMessage'), body: text(automationLimits.body) }),
	z.object({ kind: z.literal('addNote'), body: text(automationLimits.body) }),
	z.object({ kind: z.literal('sendCannedResponse'), cannedResponseId: id }),
	/** The conversation's notifications stop (issue 32 reads it); its assignment and mentions too. */
	z.object({ kind: z.literal('mute') }),
])
export type AutomationAction = z.infer<typeof automationAction>
export type AutomationActionKind = AutomationAction['kind']

export const automationRuleInput = z.object({
	name: text(automationLimits.name),
	enabled: z.boolean().default(true),
	event: z.enum(automationEvents),
	match: z.enum(['all', 'any']).default('all'),
	conditions: z.array(automationCondition).max(automationLimits.conditions, 'automation:errors.tooMany').default([]),
	actions: z.array(automationAction).min(1, 'automation:errors.noAction').max(automationLimits.actions, 'automation:errors.tooMany'),
	/** Later rules (in the order shown) do not run on this event once this one ran. */
	stopAfter: z.boolean().default(false),
})
export type AutomationRuleInput = z.infer<typeof automationRuleInput>

/** One run of one rule on one event: what it did (or why not). */
export const automationOutcomes = ['done', 'failed', 'stopped'] as const
export type AutomationOutcome = (typeof automationOutcomes)[number]
