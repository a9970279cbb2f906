import crypto from 'node:crypto'
import { sql } from 'kysely'
import { changeConversation, changeLabels, lockConversations, postMessage, type Actor } from '#api/conversations/actions.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel } from '#api/db/schema.ts'
import { silentRealtime, type Realtime } from '#api/realtime/publisher.ts'
import { demoChannel, demoThreads, type Step, type Teammate, type Thread } from './conversations.ts'
import * as people from './people.ts'

// Nobody listens while the seed runs: the browser reads the threads when it opens the inbox.
export const unheard: Realtime = silentRealtime

/** The demo team by the threads' short names (api/db/seed/demo.ts creates them). */
const teamEmails: Record<Teammate, string> = { owner: 'demo@example.com', amira: 'amira@example.com', julien: 'julien@example.com' }

/**
 * The demo's chat link (`/{lang}/c/demo-support`) and its conversations in Arabic, French and
 * English, played step by step through the inbound path (receiveMessage) and the API's actions
 * (replies, notes, assignment, status, priority, labels), then spread over the last week. Once:
 * a channel that has conversations is left as it is.
 */
export async function seedDemoInbox(db: DB, workspaceId: string): Promise<{ created: number }> {
	const channel =
		(await db.selectFrom('channels').selectAll().where('slug', '=', demoChannel.slug).executeTakeFirst()) ??
		(await db
			.insertInto('channels')
			.values({ workspaceId, kind: 'link', name: demoChannel.name, slug: demoChannel.slug, settings: demoChannel.settings })
			.returningAll()
			.executeTakeFirstOrThrow())
	if (await db.selectFrom('conversations').select('id').where('channelId', '=', channel.id).limit(1).executeTakeFirst()) return { created: 0 }

	const team = await db.selectFrom('users').select(['id', 'name', 'email']).where('email', 'in', Object.values(teamEmails)).execute()
	const actor = (teammate: Teammate): Actor => {
		const user = team.find((member) => member.email === teamEmails[teammate])
		if (!user) throw new Error(`the demo has no ${teamEmails[teammate]}`)
		return { id: user.id, name: user.name }
	}
	const customers = await customersByLanguage(db, workspaceId)
	const labels = await db.selectFrom('labels').select(['id', 'title']).where('workspaceId', '=', workspaceId).execute()

	const used = { ar: 0, fr: 0, en: 0 }
	// The languages take turns, so that the numbers (which follow creation) mix them as customers would.
	const played = interleaved(demoThreads)
	for (const [index, thread] of played.entries()) {
		const customer = customers[thread.language][used[thread.language]++]
		if (!customer) throw new Error(`the demo has too few ${thread.language} contacts with an e-mail`)
		let number = 0
		// A visitor's identity is the SHA-256 of their token (the link page's cookie). The demo's visitors are
		// known customers: their identity belongs to the contact, as an agent's merge would have made it.
		const externalId = crypto.createHash('sha256').update(`demo-visitor-${index}`).digest('hex')
		await db
			.insertInto('contactIdentities')
			.values({ workspaceId, channelId: channel.id, contactId: customer.id, externalId })
			.onConflict((oc) => oc.columns(['channelId', 'externalId']).doNothing())
			.execute()
		for (const [stepIndex, step] of thread.steps.entries()) {
			if ('in' in step) {
				const { conversation } = await receiveMessage(db, unheard, {
					channel,
					from: { externalId, name: customer.name },
					externalId: `demo-${index}-${stepIndex}`,
					body: step.in,
				})
				number = conversation.number
			} else {
				await db.transaction().execute(async (trx) => {
					const [conversation] = await lockConversations(trx, workspaceId, [number])
					if (!conversation) throw new Error(`demo conversation #${number} is missing`)
					await play(trx, conversation, step, actor, labels)
				})
			}
		}
		await spreadOverTheWeek(db, channel, number, played.length - index)
	}
	return { created: played.length }
}

function interleaved(threads: Thread[]): Thread[] {
	const byLanguage = (['ar', 'fr', 'en'] as const).map((language) => threads.filter((thread) => thread.language === language))
	const longest = Math.max(...byLanguage.map((list) => list.length))
	return Array.from({ length: longest }, (_, index) => byLanguage.flatMap((list) => list[index] ?? [])).flat()
}

async function play(
	trx: DB,
	conversation: Awaited<ReturnType<typeof lockConversations>>[number],
	step: Exclude<Step, { in: string }>,
	actor: (teammate: Teammate) => Actor,
	labels: Array<{ id: string; title: string }>,
) {
	const by = actor(step.by)
	if ('reply' in step) await postMessage(trx, conversation, { kind: 'text', body: step.reply }, by)
	else if ('note' in step) await postMessage(trx, conversation, { kind: 'note', body: step.note }, by)
	else if ('assign' in step) {
		const assignee = step.assign ? actor(step.assign) : null
		await changeConversation(trx, conversation, { assigneeId: assignee?.id ?? null, assigneeName: assignee?.name }, by)
	} else if ('status' in step) {
		// A snooze ends in two days: the conversation comes back by itself (its wake-up job).
		const snoozedUntil = step.status === 'snoozed' ? new Date(Date.now() + 2 * 24 * 3600 * 1000) : undefined
		await changeConversation(trx, conversation, { status: step.status, snoozedUntil }, by)
	} else if ('priority' in step) await changeConversation(trx, conversation, { priority: step.priority }, by)
	else {
		const add = labels.filter((label) => step.labels.includes(label.title)).map((label) => label.id)
		await changeLabels(trx, conversation, { add, remove: [] }, by)
	}
}

/** Contacts of the demo with an e-mail, by the language their name is written in. */
async function customersByLanguage(db: DB, workspaceId: string): Promise<Record<Thread['language'], Array<{ id: string; name: string }>>> {
	const withEmail = await db
		.selectFrom('contacts')
		.select(['id', 'name'])
		.where('workspaceId', '=', workspaceId)
		.where('email', 'is not', null)
		.orderBy('nameKey')
		.orderBy('id')
		.execute()
	const firstName = (name: string) => name.split(' ')[0] ?? ''
	return {
		ar: withEmail.filter((row) => /[\u0600-\u06FF]/.test(row.name)),
		fr: withEmail.filter((row) => people.frenchFirstNames.includes(firstName(row.name))),
		en: withEmail.filter((row) => people.englishFirstNames.includes(firstName(row.name))),
	}
}

/**
 * A thread played now is a few milliseconds long: its messages move to a start within the last
 * week (a few minutes apart, in the order they were written), with what the conversation and its
 * contact keep of them.
 */
async function spreadOverTheWeek(db: DB, channel: Channel, number: number, newerThreads: number) {
	// About five hours between threads, the last one an hour ago.
	const hoursAgo = newerThreads * 5 - 4 + ((number * 7) % 3)
	const conversation = await db
		.selectFrom('conversations')
		.select('id')
		.where('workspaceId', '=', channel.workspaceId)
		.where('number', '=', number)
		.executeTakeFirstOrThrow()
	await backdateConversation(db, conversation.id, hoursAgo)
}

/** A conversation played just now starts `hoursAgo` instead, its messages four minutes apart, with what it and its contact keep of them. */
export async function backdateConversation(db: DB, conversationId: string, hoursAgo: number) {
	await sql`
		update messages set created_at = start.at + (ordered.position - 1) * interval '4 minutes', updated_at = start.at + (ordered.position - 1) * interval '4 minutes'
		from (select id, row_number() over (order by id) as position from messages where conversation_id = ${conversationId}) ordered,
			(select now() - ${hoursAgo} * interval '1 hour' as at) start
		where messages.id = ordered.id`.execute(db)
	await sql`
		update conversations set created_at = first.created_at, updated_at = last.created_at, last_activity_at = last.created_at,
			first_response_at = (select min(created_at) from messages where conversation_id = conversations.id and direction = 'outgoing' and kind = 'text')
		from (select min(created_at) as created_at from messages where conversation_id = ${conversationId}) first,
			(select created_at from messages where id = (select last_message_id from conversations where id = ${conversationId})) last
		where conversations.id = ${conversationId}`.execute(db)
	await sql`
		update contacts set last_activity_at = conversations.last_activity_at
		from conversations where conversations.id = ${conversationId} and contacts.id = conversations.contact_id`.execute(db)
}
