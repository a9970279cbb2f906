import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'

/** How many past conversations the demo's year holds (about six a day, more lately). */
export const historyConversations = 2_000

// What customers and agents say in the year's threads, a few lines per language (the played threads carry the real stories).
const lines = {
	ar: {
		customer: ['مرحبًا، عندي سؤال عن طلبي.', 'متى يصل الطلب؟', 'هل يمكن تغيير العنوان؟', 'شكرًا جزيلًا!', 'الدفع لم يتم، ما المشكلة؟'],
		agent: ['أهلًا بك، سأتحقق من ذلك الآن.', 'تم شحن طلبك وسيصل خلال يومين.', 'تم تحديث العنوان.', 'العفو، نحن في الخدمة دائمًا.'],
	},
	fr: {
		customer: [
			'Bonjour, j’ai une question sur ma commande.',
			'Quand arrive mon colis ?',
			'Puis-je changer l’adresse ?',
			'Merci beaucoup !',
			'Le paiement a échoué, pourquoi ?',
		],
		agent: [
			'Bonjour, je regarde tout de suite.',
			'Votre colis est parti, il arrive sous deux jours.',
			'L’adresse est mise à jour.',
			'Avec plaisir, bonne journée !',
		],
	},
	en: {
		customer: [
			'Hi, I have a question about my order.',
			'When will my parcel arrive?',
			'Can I change the delivery address?',
			'Thanks a lot!',
			'My payment failed, what happened?',
		],
		agent: [
			'Hello, let me check that for you.',
			'Your order has shipped and arrives in two days.',
			'The address is updated.',
			'You are welcome, have a nice day!',
		],
	},
}

const pick = (list: string[], index: ReturnType<typeof sql>) => sql`(${sql.val(list)}::text[])[1 + ((${index}) % ${list.length})]`
const byLanguage = (part: 'customer' | 'agent', index: ReturnType<typeof sql>) =>
	sql`case lang when 'ar' then ${pick(lines.ar[part], index)} when 'fr' then ${pick(lines.fr[part], index)} else ${pick(lines.en[part], index)} end`

/**
 * A year of past conversations, so that the dashboard's reports are full on the first sign-in:
 * spread over the last 365 days (denser lately, mostly in the workspace's working hours), on every
 * channel of the demo (the chat link most), each answered after a few minutes to a few hours by its
 * assignee and resolved, some labelled. Written in a few statements, as the bench's seed is; the
 * roll-ups follow from their triggers. Once: a workspace with conversations older than the played
 * threads' week is left as it is.
 */
export async function seedDemoHistory(db: DB, workspaceId: string): Promise<{ created: number }> {
	const old = await db
		.selectFrom('conversations')
		.select('id')
		.where('workspaceId', '=', workspaceId)
		.where('createdAt', '<', sql<Date>`now() - interval '8 days'`)
		.limit(1)
		.executeTakeFirst()
	if (old) return { created: 0 }
	const channels = await db.selectFrom('channels').select(['id', 'kind']).where('workspaceId', '=', workspaceId).orderBy('createdAt').execute()
	const members = await db.selectFrom('members').select('userId').where('workspaceId', '=', workspaceId).orderBy('userId').execute()
	const contacts = await db.selectFrom('contacts').select('id').where('workspaceId', '=', workspaceId).orderBy('id').execute()
	const labels = await db.selectFrom('labels').select('id').where('workspaceId', '=', workspaceId).orderBy('title').execute()
	if (channels.length === 0 || members.length === 0 || contacts.length === 0) return { created: 0 }
	// The chat link takes half of the conversations; the messaging channels share the rest.
	const channelTurns = channels.flatMap((channel) => (channel.kind === 'link' ? new Array<string>(channels.length).fill(channel.id) : [channel.id]))
	const { timezone } = await db.selectFrom('workspaces').select('timezone').where('id', '=', workspaceId).executeTakeFirstOrThrow()

	await db.transaction().execute(async (trx) => {
		const numbers = await trx
			.insertInto('conversationNumbers')
			.values({ workspaceId, lastNumber: historyConversations })
			.onConflict((oc) => oc.column('workspaceId').doUpdateSet({ lastNumber: sql`conversation_numbers.last_number + ${historyConversations}` }))
			.returning('lastNumber')
			.executeTakeFirstOrThrow()
		const first = numbers.lastNumber - historyConversations
		// A day drawn towards today (the square root), an hour mostly from 9 to 18 in the workspace's time zone.
		await sql`
			insert into conversations (workspace_id, number, contact_id, channel_id, status, assignee_id, priority, created_at, last_activity_at, updated_at)
			select ${workspaceId}, ${first} + n, (${sql.val(contacts.map((contact) => contact.id))}::uuid[])[1 + (n * 7919) % ${contacts.length}],
				(${sql.val(channelTurns)}::uuid[])[1 + (n * 31) % ${channelTurns.length}], 'resolved',
				case when n % 9 = 0 then null else (${sql.val(members.map((member) => member.userId))}::uuid[])[1 + (n * 13) % ${members.length}] end,
				(n * 17) % 5, at, at, at
			from generate_series(1, ${historyConversations}) n,
				lateral (select (((current_date - (8 + floor(357 * (1 - sqrt(((n * 104729) % 1000) / 1000.0))))::int)::timestamp
					+ make_interval(hours => case when n % 7 = 0 then (n * 5) % 24 else 9 + (n * 11) % 10 end, mins => (n * 37) % 60)) at time zone ${timezone}) as at) placed
		`.execute(trx)
		// Messages: the customer, a first answer after 2 minutes to 5 hours, then turns a few minutes apart, and the resolution.
		await sql`
			insert into messages (workspace_id, conversation_id, channel_id, direction, kind, body, activity, sender_id, status, created_at, updated_at)
			select ${workspaceId}, id, channel_id, direction, kind,
				case when kind = 'activity' then '' when direction = 'incoming' then ${byLanguage('customer', sql`number + j`)} else ${byLanguage('agent', sql`number * 3 + j`)} end,
				case when kind = 'activity' then json_build_object('key', 'activity.resolved', 'values', json_build_object('actor', resolver_name))::jsonb end,
				case when direction = 'outgoing' then resolver end,
				case when direction = 'outgoing' and kind = 'text' then 'read' end,
				at, at
			from (
				select conversations.id, number, channel_id, lang, j, total, resolver, resolver_name,
					case when j % 2 = 1 and j < total then 'incoming' else 'outgoing' end as direction,
					case when j = total then 'activity' else 'text' end as kind,
					created_at + case when j = 1 then interval '0' else (2 + ((number * 7) % 300) * ((number * 7) % 300) / 300) * interval '1 minute' + (j - 2) * interval '4 minutes' end as at
				from conversations
				join (select id as contact_id, case when name ~ '[\u0600-\u06FF]' then 'ar' when hashtext(id::text) % 2 = 0 then 'fr' else 'en' end as lang from contacts where workspace_id = ${workspaceId}) languages using (contact_id)
				cross join lateral (select coalesce(assignee_id, (${sql.val(members.map((member) => member.userId))}::uuid[])[1]) as resolver) who
				cross join lateral (select name as resolver_name from users where users.id = who.resolver) named
				cross join lateral (select 3 + (number * 7) % 5 as total) counted
				cross join lateral generate_series(1, total) j
				where conversations.workspace_id = ${workspaceId} and number > ${first}
			) planned
			order by at
		`.execute(trx)
		await sql`
			update conversations set incoming_count = kept.incoming, last_message_id = kept.last_text, last_message_excerpt = last.body, last_message_direction = last.direction,
				last_activity_at = kept.last_at, updated_at = kept.last_at, first_response_at = kept.first_response
			from (
				select conversation_id, count(*) filter (where direction = 'incoming') as incoming, max(id) filter (where kind = 'text') as last_text, max(created_at) as last_at,
					min(created_at) filter (where direction = 'outgoing' and kind = 'text') as first_response
				from messages where conversation_id in (select id from conversations where workspace_id = ${workspaceId} and number > ${first}) group by conversation_id
			) kept
			join messages last on last.id = kept.last_text
			where conversations.id = kept.conversation_id
		`.execute(trx)
		if (labels.length > 0) {
			await sql`
				insert into conversation_labels (workspace_id, conversation_id, label_id)
				select ${workspaceId}, id, (${sql.val(labels.map((label) => label.id))}::uuid[])[1 + (number * 3) % ${labels.length}]
				from conversations where workspace_id = ${workspaceId} and number > ${first} and number % 3 = 0
			`.execute(trx)
		}
	})
	return { created: historyConversations }
}
