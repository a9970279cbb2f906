import { sql } from 'kysely'
import { automationMaxDepth, type AutomationAction, type AutomationCondition } from '#common/automation.ts'
import { isOpen, nextOpening } from '#common/business-hours.ts'
import { enqueue } from '#api/assignment/queue.ts'
import { renderMessage, type ContactFields } from '#api/campaigns/queries.ts'
import { providerFor } from '#api/channels/providers/index.ts'
import { scheduleOf } from '#api/channels/schedule.ts'
import { changeConversation, changeLabels, postMessage, type Actor } from '#api/conversations/actions.ts'
import { messageEvent, publishEvents, type InboxEvent } from '#api/conversations/events.ts'
import { addActivity } from '#api/conversations/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { priorities, type Activity, type AutomationActionResult, type AutomationRule, type Channel, type Contact, type Conversation } from '#api/db/schema.ts'
import { type JobPayloads } from '#api/jobs/queue.ts'
import { type Realtime } from '#api/realtime/publisher.ts'

export type AutomationJob = JobPayloads['run-automation']

/**
 * What a rule's conditions read: the conversation as it was when the run began (a rule's action does
 * not make a later rule of the same event match: that is the next event's, one level deeper), its
 * channel and contact, and the message that set the event off. `conversation` is as it is now, for the actions.
 */
type Context = {
	conversation: Conversation
	state: Conversation
	channel: Channel
	contact: Contact
	message: { id: string; body: string; createdAt: Date } | null
	contactLabels: Set<string>
	conversationLabels: Set<string>
	/** Texts as search folds them (crm_fold): the message, the rules' words and the contact's values. */
	folded: Map<string, string>
	at: Date
	messageCount?: number
	open?: boolean
}

const fail = (key: string, values: Record<string, string> = {}): Activity => ({ key: `automation:run.${key}`, values })

/**
 * The `run-automation` job: the workspace's enabled rules for the event, in order, on the locked
 * conversation, in one transaction. A rule whose conditions hold is recorded once per event
 * (`automation_runs`' unique key, inserted before its actions in the same transaction): a retried
 * job, or a second process taking it, finds the run and does nothing. Past `automationMaxDepth`
 * levels of rules set off by rules, the rules that would have run are recorded as stopped.
 */
export async function runAutomation(db: DB, realtime: Realtime, job: AutomationJob): Promise<void> {
	const events = await db.transaction().execute(async (trx) => {
		const conversation = await trx
			.selectFrom('conversations')
			.selectAll()
			.where('id', '=', job.conversationId)
			.where('workspaceId', '=', job.workspaceId)
			.forUpdate()
			.executeTakeFirst()
		if (!conversation) return []
		const rules = await trx
			.selectFrom('automationRules')
			.selectAll()
			.where('workspaceId', '=', job.workspaceId)
			.where('enabled', '=', true)
			.where('event', '=', job.event)
			.orderBy('position')
			.orderBy('id')
			.execute()
		if (rules.length === 0) return []
		const context = await loadContext(trx, conversation, rules, job.messageId)
		const published: InboxEvent[] = []
		for (const rule of rules) {
			if (!(await matches(trx, rule, context))) continue
			const tooDeep = job.depth >= automationMaxDepth
			const run = await trx
				.insertInto('automationRuns')
				.values({
					ruleId: rule.id,
					workspaceId: job.workspaceId,
					conversationId: conversation.id,
					event: job.event,
					eventKey: job.eventKey,
					depth: job.depth,
					outcome: tooDeep ? 'stopped' : 'done',
					error: tooDeep ? JSON.stringify(fail('tooDeep', { depth: String(automationMaxDepth) })) : null,
				})
				.onConflict((oc) => oc.constraint('automation_runs_once_key').doNothing())
				.returning('id')
				.executeTakeFirst()
			// Already run for this event (a retry, or another process): its actions are done, and its stop holds.
			if (run && !tooDeep) {
				const actor: Actor = { id: null, name: rule.name, rule: { id: rule.id, depth: job.depth } }
				const results: AutomationActionResult[] = []
				for (const action of rule.actions) results.push(await applyAction(trx, context, action, actor, published))
				const failed = results.some((result) => result.outcome === 'failed')
				await trx
					.updateTable('automationRuns')
					.set({ actions: JSON.stringify(results), outcome: failed ? 'failed' : 'done' })
					.where('id', '=', run.id)
					.execute()
				const line = await addActivity(trx, context.conversation, {
					key: failed ? 'activity.automationFailed' : 'activity.automation',
					values: { rule: rule.name },
				})
				published.push(messageEvent('message.created', context.conversation, line))
			}
			if (rule.stopAfter) break
		}
		return published
	})
	void publishEvents(db, realtime, events)
}

async function loadContext(trx: DB, conversation: Conversation, rules: AutomationRule[], messageId: string | undefined): Promise<Context> {
	const [channel, contact, contactLabels, conversationLabels, message] = await Promise.all([
		trx.selectFrom('channels').selectAll().where('id', '=', conversation.channelId).executeTakeFirstOrThrow(),
		trx.selectFrom('contacts').selectAll().where('id', '=', conversation.contactId).executeTakeFirstOrThrow(),
		trx.selectFrom('contactLabels').select('labelId').where('contactId', '=', conversation.contactId).execute(),
		trx.selectFrom('conversationLabels').select('labelId').where('conversationId', '=', conversation.id).execute(),
		messageId
			? trx
					.selectFrom('messages')
					.select(['id', 'body', 'createdAt'])
					.where('id', '=', messageId)
					.where('conversationId', '=', conversation.id)
					.executeTakeFirst()
			: undefined,
	])
	const texts = new Set<string>()
	if (message) texts.add(message.body)
	for (const rule of rules)
		for (const condition of rule.conditions) {
			if (condition.kind === 'messageContains') for (const word of condition.words) texts.add(word)
			if (condition.kind === 'contactAttribute') {
				texts.add(condition.value)
				const value = attributeOf(contact, condition.attribute)
				if (value) texts.add(value)
			}
		}
	return {
		conversation,
		state: conversation,
		channel,
		contact,
		message: message ?? null,
		contactLabels: new Set(contactLabels.map((row) => row.labelId)),
		conversationLabels: new Set(conversationLabels.map((row) => row.labelId)),
		folded: await fold(trx, [...texts]),
		at: message?.createdAt ?? new Date(),
	}
}

/** Texts folded as search folds them, in one statement: the database's crm_fold is the one definition. */
async function fold(trx: DB, texts: string[]): Promise<Map<string, string>> {
	if (texts.length === 0) return new Map()
	const { rows } = await sql<{
		folded: string
	}>`select crm_fold(text) as folded from unnest(${texts}::text[]) with ordinality as texts(text, n) order by n`.execute(trx)
	return new Map(texts.map((text, index) => [text, rows[index]?.folded ?? text]))
}

function attributeOf(contact: Contact, attribute: string): string | null {
	if (attribute === 'name' || attribute === 'email' || attribute === 'phone' || attribute === 'company') return contact[attribute]
	const value: unknown = Object.hasOwn(contact.attributes, attribute) ? contact.attributes[attribute] : undefined
	return typeof value === 'string' ? value : null
}

async function matches(trx: DB, rule: AutomationRule, context: Context): Promise<boolean> {
	if (rule.conditions.length === 0) return true
	for (const condition of rule.conditions) {
		const holds = await check(trx, condition, context)
		if (rule.match === 'any' && holds) return true
		if (rule.match === 'all' && !holds) return false
	}
	return rule.match === 'all'
}

const domainOf = (value: string) => value.trim().toLowerCase().replace(/^.*@/, '')

async function check(trx: DB, condition: AutomationCondition, context: Context): Promise<boolean> {
	const { state: conversation, channel, contact, folded } = context
	switch (condition.kind) {
		case 'channel':
			return condition.channelIds.includes(channel.id) === (condition.op === 'is')
		case 'channelKind':
			return (condition.kinds as readonly string[]).includes(channel.kind) === (condition.op === 'is')
		case 'messageContains': {
			const body = context.message ? folded.get(context.message.body)! : ''
			const found = context.message !== null && condition.words.some((word) => body.includes(folded.get(word)!))
			return condition.op === 'any' ? found : !found
		}
		case 'contactLabel':
			return context.contactLabels.has(condition.labelId) === (condition.op === 'has')
		case 'conversationLabel':
			return context.conversationLabels.has(condition.labelId) === (condition.op === 'has')
		case 'contactAttribute': {
			const value = attributeOf(contact, condition.attribute)
			if (!value) return false
			const [have, want] = [folded.get(value)!, folded.get(condition.value)!]
			return condition.op === 'equals' ? have.trim() === want.trim() : have.includes(want)
		}
		case 'emailDomain': {
			const domain = contact.email ? domainOf(contact.email) : null
			const listed = domain !== null && condition.domains.some((each) => domainOf(each) === domain)
			return listed === (condition.op === 'is')
		}
		case 'priority':
			return (condition.priorities as readonly string[]).includes(priorities[conversation.priority] ?? 'none') === (condition.op === 'is')
		case 'status':
			return (condition.statuses as readonly string[]).includes(conversation.status) === (condition.op === 'is')
		case 'team':
			if (condition.op === 'none') return conversation.teamId === null
			return (conversation.teamId !== null && condition.teamIds.includes(conversation.teamId)) === (condition.op === 'is')
		case 'assignee':
			if (condition.op === 'none') return conversation.assigneeId === null
			if (condition.op === 'anyone') return conversation.assigneeId !== null
			return conversation.assigneeId !== null && condition.userIds.includes(conversation.assigneeId)
		case 'businessHours':
			if (context.open === undefined) {
				const { hours, timeZone } = await scheduleOf(trx, channel)
				context.open = isOpen(hours, timeZone, context.at)
			}
			return context.open === (condition.op === 'inside')
		case 'messageCount': {
			context.messageCount ??= await messageCount(trx, context)
			const count = context.messageCount
			return condition.op === 'equals' ? count === condition.value : condition.op === 'atLeast' ? count >= condition.value : count <= condition.value
		}
	}
}

/** The customer's messages in the conversation up to the one that set the event off (else all of them). */
async function messageCount(trx: DB, context: Context): Promise<number> {
	if (!context.message) return context.state.incomingCount
	const row = await trx
		.selectFrom('messages')
		.select(sql<number>`count(*)::int`.as('count'))
		.where('conversationId', '=', context.conversation.id)
		.where('direction', '=', 'incoming')
		.where('id', '<=', context.message.id)
		.executeTakeFirstOrThrow()
	return row.count
}

const contactFields = (contact: Contact): ContactFields => ({
	name: contact.name,
	company: contact.company,
	email: contact.email,
	phone: contact.phone,
	attributes: contact.attributes,
})

/**
 * One action, in a savepoint: an action that fails unexpectedly is undone alone, recorded as
 * failed, and the rule's other actions still run. Expected refusals (a team deleted since, a
 * closed reply window) are failures with their reason.
 */
async function applyAction(trx: DB, context: Context, action: AutomationAction, actor: Actor, published: InboxEvent[]): Promise<AutomationActionResult> {
	await sql`savepoint automation_action`.execute(trx)
	const before = context.conversation
	try {
		const events: InboxEvent[] = []
		const outcome = await act(trx, context, action, actor, events)
		await sql`release savepoint automation_action`.execute(trx)
		published.push(...events)
		return outcome === true
			? { kind: action.kind, outcome: 'done' }
			: outcome === false
				? { kind: action.kind, outcome: 'skipped' }
				: { kind: action.kind, outcome: 'failed', error: outcome }
	} catch {
		await sql`rollback to savepoint automation_action`.execute(trx)
		context.conversation = before
		return { kind: action.kind, outcome: 'failed', error: fail('failed') }
	}
}

/** Does the action: true when it changed something, false when there was nothing to change, else why it could not. */
async function act(trx: DB, context: Context, action: AutomationAction, actor: Actor, events: InboxEvent[]): Promise<boolean | Activity> {
	const { conversation } = context
	const change = async (changes: Parameters<typeof changeConversation>[2]) => {
		const changed = await changeConversation(trx, context.conversation, changes, actor)
		events.push(...changed.events)
		const moved = changed.conversation !== context.conversation
		context.conversation = changed.conversation
		return moved
	}
	switch (action.kind) {
		case 'assignTeam': {
			const team = await trx
				.selectFrom('teams')
				.select('name')
				.where('workspaceId', '=', conversation.workspaceId)
				.where('id', '=', action.teamId)
				.executeTakeFirst()
			if (!team) return fail('teamGone')
			return change({ teamId: action.teamId, teamName: team.name })
		}
		case 'assignAgent': {
			const member = await trx
				.selectFrom('members')
				.innerJoin('users', 'users.id', 'members.userId')
				.select('users.name')
				.where('members.workspaceId', '=', conversation.workspaceId)
				.where('members.userId', '=', action.userId)
				.executeTakeFirst()
			if (!member) return fail('agentGone')
			return change({ assigneeId: action.userId, assigneeName: member.name })
		}
		case 'autoAssign': {
			if (conversation.assigneeId !== null || conversation.status !== 'open') return false
			const team = conversation.teamId ? await trx.selectFrom('teams').select('autoAssign').where('id', '=', conversation.teamId).executeTakeFirst() : undefined
			if (!team?.autoAssign) return fail('noAutoAssign')
			context.conversation = await enqueue(trx, conversation)
			return true
		}
		case 'unassign':
			return change({ assigneeId: null })
		case 'setPriority':
			return change({ priority: action.priority })
		case 'setStatus':
			return change({ status: action.status })
		case 'snooze': {
			const schedule = action.minutes === null ? await scheduleOf(trx, context.channel) : null
			const until = schedule ? nextOpening(schedule.hours, schedule.timeZone, new Date()) : new Date(Date.now() + action.minutes! * 60_000)
			if (!until) return fail('alwaysOpen')
			return change({ status: 'snoozed', snoozedUntil: until })
		}
		case 'addLabels':
		case 'removeLabels': {
			const labels = await trx
				.selectFrom('labels')
				.select('id')
				.where('workspaceId', '=', conversation.workspaceId)
				.where('id', 'in', action.labelIds)
				.execute()
			if (labels.length === 0) return action.kind === 'addLabels' ? fail('labelsGone') : false
			const ids = labels.map((label) => label.id)
			const changed = await changeLabels(trx, conversation, action.kind === 'addLabels' ? { add: ids, remove: [] } : { add: [], remove: ids }, actor)
			events.push(...changed)
			return changed.length > 0
		}
		case 'addNote':
			return post(trx, context, { kind: 'note', body: renderMessage(action.body, contactFields(context.contact)) }, actor, events)
		case 'sendMessage':
			return send(trx, context, action.body, actor, events)
		case 'sendCannedResponse': {
			const canned = await trx
				.selectFrom('cannedResponses')
				.select('content')
				.where('workspaceId', '=', conversation.workspaceId)
				.where('id', '=', action.cannedResponseId)
				.executeTakeFirst()
			if (!canned) return fail('cannedGone')
			return send(trx, context, canned.content, actor, events)
		}
		case 'mute': {
			const muted = await trx
				.updateTable('conversations')
				.set({ mutedAt: sql<Date>`now()` })
				.where('id', '=', conversation.id)
				.where('mutedAt', 'is', null)
				.returningAll()
				.executeTakeFirst()
			if (muted) context.conversation = muted
			return muted !== undefined
		}
	}
}

async function post(trx: DB, context: Context, input: { kind: 'text' | 'note'; body: string }, actor: Actor, events: InboxEvent[]): Promise<true> {
	const posted = await postMessage(trx, context.conversation, input, actor)
	events.push(...posted.events)
	return true
}

/**
 * A message to the customer as an agent's reply goes: refused when the channel is off or its reply
 * window closed (a rule has no template to send), else pending for the channel's `send-message` job.
 */
async function send(trx: DB, context: Context, text: string, actor: Actor, events: InboxEvent[]): Promise<true | Activity> {
	const { channel, conversation } = context
	if (!channel.enabled) return fail('channelOff', { name: channel.name })
	const provider = providerFor(channel.kind)
	if (provider?.replyWindowMs) {
		const last = await trx
			.selectFrom('messages')
			.select('createdAt')
			.where('conversationId', '=', conversation.id)
			.where('direction', '=', 'incoming')
			.orderBy('id', 'desc')
			.limit(1)
			.executeTakeFirst()
		if (!last || Date.now() - last.createdAt.getTime() > provider.replyWindowMs)
			return fail(provider.listTemplates ? 'windowClosed' : 'windowClosedUntilCustomer', { hours: String(provider.replyWindowMs / 3_600_000) })
	}
	return post(trx, context, { kind: 'text', body: renderMessage(text, contactFields(context.contact)) }, actor, events)
}
