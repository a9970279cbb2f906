import { sql, type Updateable } from 'kysely'
import { type NewAttachment } from '#api/attachments/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { priorities, type Activity, type Conversation, type ConversationsTable, type Message, type MessageTemplateUse } from '#api/db/schema.ts'
import { enqueue, leaveQueue, requestDrainIfWaiting } from '#api/assignment/queue.ts'
import { recordAudit } from '#api/audit/record.ts'
import { addJob, removeJob } from '#api/jobs/queue.ts'
import { notify } from '#api/notifications/notify.ts'
import { triggerAutomation } from '#api/automation/trigger.ts'
import { type AutomationEvent } from '#common/automation.ts'
import { surveyOnStatusChange } from '#api/satisfaction/surveys.ts'
import { conversationEvent, messageEvent, type InboxEvent } from './events.ts'
import { addActivity, excerptWithFiles, lastMessageOf, wakeJobKey } from './inbound.ts'
import { type ConversationChanges } from './schemas.ts'
import { membersWhoSee, visibleTo, type Reader } from './visibility.ts'

/**
 * Who acts, named in the activity lines they cause: a member, or an automation rule (no member;
 * `depth`: how many rules' changes in a row led to this one, so its own events run rules one deeper).
 */
export type Actor = { id: string; name: string; rule?: undefined } | { id: null; name: string; rule: { id: string; depth: number } }

/** The depth of the rules an actor's change sets off. */
const depthAfter = (actor: Actor) => (actor.rule ? actor.rule.depth + 1 : 0)

type Changed = { conversation: Conversation; events: InboxEvent[] }

/** The workspace's conversations `numbers` (those `reader` sees, given one), locked for the transaction's changes (in id order, so that two bulk changes never deadlock). */
export async function lockConversations(trx: DB, workspaceId: string, numbers: number[], reader?: Reader): Promise<Conversation[]> {
	if (numbers.length === 0) return []
	let query = trx.selectFrom('conversations').selectAll().where('workspaceId', '=', workspaceId).where('number', 'in', numbers)
	if (reader) query = query.where(visibleTo(workspaceId, reader))
	return query.orderBy('id').forUpdate().execute()
}

async function activityLine(trx: DB, conversation: Conversation, activity: Activity, actor: Actor | null, events: InboxEvent[]) {
	const message = await addActivity(trx, conversation, activity, actor?.id ?? null)
	events.push(messageEvent('message.created', conversation, message))
}

const statusActivity = { open: 'activity.reopened', pending: 'activity.pending', resolved: 'activity.resolved', snoozed: 'activity.snoozed' } as const

/**
 * Changes a locked conversation's status, snooze, assignee, team or priority: one activity line per
 * change that really changes something, the snooze's wake-up job (or its removal), and a
 * notification for a new assignee other than the actor. `assigneeName` names `changes.assigneeId`,
 * `teamName` names `changes.teamId`.
 */
export async function changeConversation(
	trx: DB,
	conversation: Conversation,
	changes: ConversationChanges & { assigneeName?: string; teamName?: string },
	actor: Actor,
): Promise<Changed> {
	const events: InboxEvent[] = []
	const ruleEvents: AutomationEvent[] = []
	const values: Updateable<ConversationsTable> & { snoozedUntil?: Date | null } = {}
	const { status, snoozedUntil } = changes
	if (status && (status !== conversation.status || (status === 'snoozed' && snoozedUntil?.getTime() !== conversation.snoozedUntil?.getTime()))) {
		values.status = status
		if (status !== conversation.status) ruleEvents.push('conversation.statusChanged', ...(status === 'resolved' ? (['conversation.resolved'] as const) : []))
		values.snoozedUntil = status === 'snoozed' ? (snoozedUntil ?? null) : null
		const until: Record<string, string> = values.snoozedUntil ? { until: values.snoozedUntil.toISOString() } : {}
		await activityLine(trx, conversation, { key: statusActivity[status], values: { actor: actor.name, ...until } }, actor, events)
		if (values.snoozedUntil)
			await addJob(trx, 'wake-snoozed', { conversationId: conversation.id }, { runAt: values.snoozedUntil, key: wakeJobKey(conversation.id) })
		else if (conversation.status === 'snoozed') await removeJob(trx, wakeJobKey(conversation.id))
	}
	if (changes.assigneeId !== undefined && changes.assigneeId !== conversation.assigneeId) {
		values.assigneeId = changes.assigneeId
		ruleEvents.push('conversation.assigneeChanged')
		const activity: Activity = changes.assigneeId
			? { key: 'activity.assigned', values: { actor: actor.name, assignee: changes.assigneeName ?? '' } }
			: { key: 'activity.unassigned', values: { actor: actor.name } }
		await activityLine(trx, conversation, activity, actor, events)
		// By hand, so in the audit log too (auto-assignment's are lines of the thread only).
		await recordAudit(
			trx,
			conversation.workspaceId,
			actor,
			changes.assigneeId ? 'conversation.assigned' : 'conversation.unassigned',
			changes.assigneeId ? { number: conversation.number, assignee: changes.assigneeName ?? '' } : { number: conversation.number },
		)
		if (changes.assigneeId && changes.assigneeId !== actor.id)
			events.push(
				...(await notify(trx, [
					{
						workspaceId: conversation.workspaceId,
						userId: changes.assigneeId,
						kind: 'assigned',
						conversationId: conversation.id,
						values: { actor: actor.name },
					},
				])),
			)
	}
	if (changes.teamId !== undefined && changes.teamId !== conversation.teamId) {
		values.teamId = changes.teamId
		ruleEvents.push('conversation.teamChanged')
		const activity: Activity = changes.teamId
			? { key: 'activity.teamChanged', values: { actor: actor.name, team: changes.teamName ?? '' } }
			: { key: 'activity.teamRemoved', values: { actor: actor.name } }
		await activityLine(trx, conversation, activity, actor, events)
	}
	if (changes.priority !== undefined && priorities.indexOf(changes.priority) !== conversation.priority) {
		values.priority = priorities.indexOf(changes.priority)
		ruleEvents.push('conversation.priorityChanged')
		await activityLine(trx, conversation, { key: `activity.priority.${changes.priority}`, values: { actor: actor.name } }, actor, events)
	}
	if (Object.keys(values).length === 0) return { conversation, events }
	const next = {
		status: values.status ?? conversation.status,
		assigneeId: values.assigneeId !== undefined ? values.assigneeId : conversation.assigneeId,
		teamId: values.teamId !== undefined ? values.teamId : conversation.teamId,
	}
	const updated = await trx
		.updateTable('conversations')
		.set({ ...values, ...(await leaveQueue(trx, conversation, next)), updatedAt: sql<Date>`now()` })
		.where('id', '=', conversation.id)
		.returningAll()
		.executeTakeFirstOrThrow()
	// An agent with one open conversation fewer has room for the queue's next; one left without an assignee, or moved to
	// another team without one, joins its team's queue.
	const freed = conversation.status === 'open' && conversation.assigneeId !== null && (next.status !== 'open' || next.assigneeId !== conversation.assigneeId)
	if (freed) await requestDrainIfWaiting(trx, conversation.workspaceId)
	// A resolution asks the customer to rate it (when its channel asks); any other status ends an open survey.
	if (values.status) events.push(...(await surveyOnStatusChange(trx, updated)))
	await triggerAutomation(trx, conversation, ruleEvents, { depth: depthAfter(actor) })
	return { conversation: await enqueue(trx, updated), events: [conversationEvent('conversation.updated', updated, conversation), ...events] }
}

/** Adds and removes a locked conversation's labels, with a line naming the labels added and one naming those removed. */
export async function changeLabels(trx: DB, conversation: Conversation, change: { add: string[]; remove: string[] }, actor: Actor): Promise<InboxEvent[]> {
	const added = change.add.length
		? await trx
				.insertInto('conversationLabels')
				.values(change.add.map((labelId) => ({ workspaceId: conversation.workspaceId, conversationId: conversation.id, labelId })))
				.onConflict((oc) => oc.doNothing())
				.returning('labelId')
				.execute()
		: []
	const removed = change.remove.length
		? await trx
				.deleteFrom('conversationLabels')
				.where('conversationId', '=', conversation.id)
				.where('labelId', 'in', change.remove)
				.returning('labelId')
				.execute()
		: []
	if (added.length === 0 && removed.length === 0) return []
	const events: InboxEvent[] = [conversationEvent('conversation.updated', conversation)]
	const titles = async (rows: Array<{ labelId: string }>) => {
		const labels = await trx
			.selectFrom('labels')
			.select('title')
			.where(
				'id',
				'in',
				rows.map((row) => row.labelId),
			)
			.orderBy('title')
			.execute()
		return labels.map((label) => label.title).join(', ')
	}
	if (added.length)
		await activityLine(trx, conversation, { key: 'activity.labelsAdded', values: { actor: actor.name, labels: await titles(added) } }, actor, events)
	if (removed.length)
		await activityLine(trx, conversation, { key: 'activity.labelsRemoved', values: { actor: actor.name, labels: await titles(removed) } }, actor, events)
	await triggerAutomation(trx, conversation, ['conversation.labelsChanged'], { depth: depthAfter(actor) })
	await trx
		.updateTable('conversations')
		.set({ updatedAt: sql<Date>`now()` })
		.where('id', '=', conversation.id)
		.execute()
	return events
}

/** The members named `@Name` in a note (longest names first, so that `@Amira Haddad` is not also `@Amira`), except its author. */
export async function mentionedMembers(trx: DB, workspaceId: string, body: string, authorId: string | null): Promise<string[]> {
	if (!body.includes('@')) return []
	const members = await trx
		.selectFrom('members')
		.innerJoin('users', 'users.id', 'members.userId')
		.select(['users.id', 'users.name'])
		.where('members.workspaceId', '=', workspaceId)
		.execute()
	let text = body.toLocaleLowerCase()
	const mentioned: string[] = []
	for (const member of members.sort((a, b) => b.name.length - a.name.length)) {
		const mention = `@${member.name.toLocaleLowerCase()}`
		// A mention ends where the name ends: `@Ali` is not in `@Alia`.
		const at = [...text.matchAll(new RegExp(`${escapeRegExp(mention)}(?![\\p{L}\\p{N}])`, 'gu'))]
		if (at.length === 0) continue
		text = text.replaceAll(mention, ' ')
		if (member.id !== authorId) mentioned.push(member.id)
	}
	return mentioned
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A reply or a note; a reply sent as a template (WhatsApp) carries it; `attachment` is a file already in the storage, kept beside it. */
export type MessageInput = { kind: 'text' | 'note'; body: string; template?: MessageTemplateUse; attachment?: NewAttachment }

/**
 * An agent's reply or private note on a locked conversation. A reply waits in `pending` for the
 * `send-message` job (added in this transaction) to deliver it through the channel's provider,
 * moves the conversation up the list and sets the first response time once: a person's reply
 * only, as the auto-replies (a rule's message answers no one yet). A note never leaves: it only
 * notifies the members it mentions.
 */
export async function postMessage(trx: DB, conversation: Conversation, input: MessageInput, actor: Actor): Promise<{ message: Message; events: InboxEvent[] }> {
	const message = await trx
		.insertInto('messages')
		.values({
			workspaceId: conversation.workspaceId,
			conversationId: conversation.id,
			channelId: conversation.channelId,
			direction: 'outgoing',
			kind: input.kind,
			body: input.body,
			senderId: actor.id,
			status: input.kind === 'text' ? 'pending' : null,
			template: input.template ?? null,
		})
		.returningAll()
		.executeTakeFirstOrThrow()
	if (input.attachment)
		await trx
			.insertInto('attachments')
			.values({ ...input.attachment, workspaceId: conversation.workspaceId, messageId: String(message.id) })
			.execute()
	const events: InboxEvent[] = []
	if (input.kind === 'text') {
		const updated = await trx
			.updateTable('conversations')
			.set({
				...lastMessageOf(message, input.attachment ? [input.attachment] : []),
				...(actor.rule ? {} : { firstResponseAt: sql<Date>`coalesce(first_response_at, ${message.createdAt})` }),
			})
			.where('id', '=', conversation.id)
			.returningAll()
			.executeTakeFirstOrThrow()
		await addJob(trx, 'send-message', { messageId: String(message.id) })
		events.push(conversationEvent('conversation.updated', updated))
	} else {
		const mentioned = await mentionedMembers(trx, conversation.workspaceId, input.body, actor.id)
		const excerpt = excerptWithFiles(input.body)
		const drafts = (await membersWhoSee(trx, conversation, mentioned)).map((userId) => ({
			workspaceId: conversation.workspaceId,
			userId,
			kind: 'mentioned' as const,
			conversationId: conversation.id,
			values: { actor: actor.name, excerpt },
		}))
		events.push(...(await notify(trx, drafts)))
	}
	events.unshift(messageEvent('message.created', conversation, message))
	return { message, events }
}

/** The reader has seen every incoming message of the conversation so far. */
export async function markRead(db: DB, conversation: Pick<Conversation, 'id' | 'incomingCount'>, userId: string) {
	await db
		.insertInto('conversationReads')
		.values({ conversationId: conversation.id, userId, seenCount: conversation.incomingCount })
		.onConflict((oc) => oc.columns(['conversationId', 'userId']).doUpdateSet({ seenCount: (eb) => eb.ref('excluded.seenCount'), seenAt: sql<Date>`now()` }))
		.execute()
}
