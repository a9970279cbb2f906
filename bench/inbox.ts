/**
 * The inbox cases of `npm run bench`: in each of the contacts bench's two workspaces (bench/contacts.ts),
 * 100 000 conversations (one per contact) with exactly 1 000 000 messages, written straight into the
 * server's database by set-based SQL (generate_series), then VACUUM ANALYZE as autovacuum would.
 * Six members share the conversations; four channels (two links, WhatsApp, Telegram); six labels;
 * statuses by age (the newest 30 % mostly open); bodies in English, Arabic and French (by the contact's
 * name) with notes, activity lines, incoming and outgoing messages; conversation #1 is a long thread
 * (2 508 messages) for the deep page. Every kept value is filled as the API would leave it:
 * incoming_count, last_message_*, first_response_at, conversation_numbers, the members' reads, the
 * status counts (migration 0011's triggers, which fire on these statements), the wake-up job of
 * each snoozed conversation. Idempotent: a workspace that has its conversations is left as it is.
 */
import { sql, type RawBuilder } from 'kysely'
import { hashPassword } from '#api/auth/password.ts'
import { wakeJobKey } from '#api/conversations/inbound.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { rebuildReports } from '#api/reports/rollup.ts'

export const conversationsPerWorkspace = 100_000
export const messagesPerWorkspace = 1_000_000
/** The long thread (the first conversation, open, the bench member's) and how deep its deep page starts. */
export const longThreadNumber = 1
export const deepThreadMessages = 1_000
/** Words the search cases look for: in about 1 % of the messages each (English, then Arabic as written, vowel marks and all). */
export const searchWord = 'invoice'
export const arabicSearchWord = 'الفاتورة'

export type InboxDataset = {
	workspaceId: string
	otherWorkspaceId: string
	token: string
	userId: string
	/** The `billing` label. */
	labelId: string
	/** The long thread's message id 1 000 messages back from its newest (its page is the 30 before it). */
	deepBefore: string
	/** Open conversations on the first link channel, which the reply case answers in turn. */
	replyNumbers: number[]
	conversations: number
	messages: number
	seedSeconds: number
}

const teammates = ['Amira Hassan', 'Julien Martin', 'Sarah Cohen', 'كريم منصور', 'Léa Dubois']
const channelSpecs = [
	{ kind: 'link', name: 'Website chat' },
	{ kind: 'whatsapp', name: 'WhatsApp Business' },
	{ kind: 'telegram', name: 'Telegram' },
	{ kind: 'link', name: 'Support FR' },
] as const
const labelSpecs = [
	{ title: 'billing', color: '#d97706' },
	{ title: 'bug', color: '#dc2626' },
	{ title: 'vip', color: '#7c3aed' },
	{ title: 'feedback', color: '#059669' },
	{ title: 'شكوى', color: '#be123c' },
	{ title: 'livraison', color: '#2563eb' },
]

// What customers, agents and notes say, per language. Some words recur at realistic rates for the searches.
const bodies = {
	en: {
		customer: [
			'Hello, I have a question about my invoice for last month.',
			'My order has not arrived yet, can you check the delivery?',
			'The app crashes when I open the payment page.',
			'Can I change the shipping address of my order?',
			'I was charged twice, please refund one of the payments.',
			'Is the blue model available in size 42?',
			'Thanks, that solved it!',
			'How long does a refund take to reach my card?',
			'I cannot log in to my account since yesterday.',
			'Do you deliver to Alexandria on weekends?',
			'The discount code does not work at checkout.',
			'Could you send me a copy of the receipt?',
			'Where can I download the invoice as PDF?',
			'The package arrived damaged, what should I do?',
			'Ok, I will wait for your answer.',
			'Is there a warranty on this product?',
		],
		agent: [
			'Hi! Thanks for reaching out, let me check that for you.',
			'I have refunded the duplicate payment, it will show in 3 to 5 days.',
			'Your order is on its way, here is the tracking number.',
			'Could you send me a screenshot of the error?',
			'I have updated the shipping address.',
			'Yes, we deliver every day including weekends.',
			'The new code is WELCOME10, it should work now.',
			'You are welcome, have a great day!',
			'I have sent the receipt to your e-mail address.',
			'Sorry for the trouble, a replacement is on its way.',
		],
		note: [
			'Customer is a long-time buyer, be generous.',
			'Checked with billing: the second charge is a pre-authorisation.',
			'Escalated to the tech team, ticket opened.',
			'Same issue as last week, see the earlier conversation.',
		],
		order: (n: string) => ` (order ${n})`,
	},
	ar: {
		customer: [
			'مرحبا، عندي سؤال عن الفاتورة الخاصة بالشهر الماضي.',
			'طلبي لم يصل بعد، ممكن تتأكد من التوصيل؟',
			'التطبيق يتوقف عندما أفتح صفحة الدفع.',
			'هل يمكن تغيير عنوان الشحن؟',
			'تم خصم المبلغ مرتين، أرجو استرداد أحدهما.',
			'هل المقاس ٤٢ متوفر باللون الأزرق؟',
			'شكرا جزيلا، تم حل المشكلة!',
			'كم يستغرق استرداد المبلغ؟',
			'لا أستطيع الدخول إلى حسابي منذ أمس.',
			'هل توصلون إلى الإسكندرية يوم الجمعة؟',
			'كود الخصم لا يعمل.',
			'أرسل لي نسخة من الفاتورة من فضلك.',
			'وصل الطرد تالفا، ماذا أفعل؟',
			'تمام، سأنتظر ردكم.',
		],
		agent: [
			'أهلا بك! دعني أتحقق من ذلك.',
			'تم استرداد المبلغ المكرر، سيظهر خلال ٣ إلى ٥ أيام.',
			'طلبك في الطريق، هذا رقم التتبع.',
			'ممكن ترسل لي صورة من رسالة الخطأ؟',
			'تم تحديث عنوان الشحن.',
			'نعم، نوصل كل يوم.',
			'العفو، يوم سعيد!',
			'أرسلنا الفاتورة إلى بريدك الإلكتروني.',
		],
		note: ['عميل قديم، نراعي طلبه.', 'تم التصعيد إلى الفريق التقني.', 'نفس المشكلة الأسبوع الماضي.'],
		order: (n: string) => ` (طلب رقم ${n})`,
	},
	fr: {
		customer: [
			'Bonjour, j’ai une question sur ma facture du mois dernier.',
			'Ma commande n’est toujours pas arrivée, pouvez-vous vérifier la livraison ?',
			'L’application plante quand j’ouvre la page de paiement.',
			'Puis-je changer l’adresse de livraison ?',
			'J’ai été débité deux fois, merci de me rembourser.',
			'Le modèle bleu existe-t-il en 42 ?',
			'Merci, c’est réglé !',
			'Combien de temps prend un remboursement ?',
			'Je n’arrive plus à me connecter depuis hier.',
			'Le code promo ne fonctionne pas.',
			'Pourriez-vous m’envoyer une copie de l’invoice ? Enfin, de la facture.',
			'Le colis est arrivé abîmé, que faire ?',
			'D’accord, j’attends votre réponse.',
		],
		agent: [
			'Bonjour ! Merci de nous avoir écrit, je regarde tout de suite.',
			'Le paiement en double est remboursé, comptez 3 à 5 jours.',
			'Votre commande est en route, voici le numéro de suivi.',
			'Pouvez-vous m’envoyer une capture d’écran de l’erreur ?',
			'J’ai mis à jour l’adresse de livraison.',
			'Avec plaisir, bonne journée !',
			'Je vous ai envoyé la facture par e-mail.',
		],
		note: ['Client fidèle, soyons arrangeants.', 'Vu avec la compta : le second débit est une pré-autorisation.', 'Transmis à l’équipe technique.'],
		order: (n: string) => ` (commande ${n})`,
	},
}

// The activity lines the API writes (inbox:activity.*), with values the seed fills from the members' names.
const activityKeys = ['activity.assigned', 'activity.resolved', 'activity.reopened', 'activity.labelsAdded', 'activity.pending']

/** `list[1 + index % length]`, the list sent once as an array parameter. */
const pick = (list: readonly string[], index: RawBuilder<unknown>) => sql`(${sql.val(list)}::text[])[1 + ((${index}) % ${list.length})]`

/** One of the three languages' lists by the conversation's `lang` column. */
const byLanguage = (which: 'customer' | 'agent' | 'note', index: RawBuilder<unknown>) =>
	sql`case lang when 'ar' then ${pick(bodies.ar[which], index)} when 'fr' then ${pick(bodies.fr[which], index)} else ${pick(bodies.en[which], index)} end`

/** Messages of conversation n: 2 to 18 (one in forty has one less), and the long thread the rest of the million. */
export function messageCount(n: number): number {
	return 2 + ((n * 7919) % 17) - (n % 40 === 0 ? 1 : 0)
}
function longThreadLength(): number {
	let others = 0
	for (let n = 1; n <= conversationsPerWorkspace; n++) if (n !== longThreadNumber) others += messageCount(n)
	return messagesPerWorkspace - others
}

type Workspace = { id: string; members: string[]; memberNames: string[]; channels: string[]; labels: string[] }

/** Members, channels and labels of one workspace; the first member is `userId` when given (the bench's signed-in agent). */
async function prepareWorkspace(db: DB, workspaceId: string, userId: string | undefined, run: string): Promise<Workspace> {
	const passwordHash = await hashPassword('Bench-password-1')
	const users = await db
		.insertInto('users')
		.values(
			teammates.map((name, index) => ({
				email: `bench-${run}-${index}@example.test`,
				name,
				passwordHash,
				emailVerifiedAt: new Date(),
				currentWorkspaceId: workspaceId,
			})),
		)
		.returning(['id', 'name'])
		.execute()
	await db
		.insertInto('members')
		.values(users.map((user, index) => ({ workspaceId, userId: user.id, role: index === 0 ? ('admin' as const) : ('agent' as const) })))
		.execute()
	const first = userId ? [{ id: userId, name: 'Bench Agent' }] : []
	const everyone = [...first, ...users]
	const channels = await db
		.insertInto('channels')
		.values(
			channelSpecs.map((spec, index) => ({
				workspaceId,
				kind: spec.kind,
				name: spec.name,
				slug: spec.kind === 'link' ? `bench-${run}-${index}` : null,
				settings: {},
			})),
		)
		.returning('id')
		.execute()
	const labels = await db
		.insertInto('labels')
		.values(labelSpecs.map((label) => ({ workspaceId, ...label })))
		.onConflict((oc) => oc.columns(['workspaceId', 'title']).doUpdateSet({ color: (eb) => eb.ref('excluded.color') }))
		.returning('id')
		.execute()
	return {
		id: workspaceId,
		members: everyone.map((user) => user.id),
		memberNames: everyone.map((user) => user.name),
		channels: channels.map((c) => c.id),
		labels: labels.map((l) => l.id),
	}
}

/** The non-constraint indexes of `table`, dropped while `load` runs and built again after it (far faster than kept row by row). */
async function withoutIndexes(db: DB, table: string, load: () => Promise<void>) {
	const { rows } = await sql<{ name: string; definition: string }>`
		select indexname as name, indexdef as definition from pg_indexes
		where schemaname = 'public' and tablename = ${table}
			and indexname not in (select conname from pg_constraint where conrelid = ${table}::regclass)`.execute(db)
	for (const index of rows) await sql`drop index ${sql.id(index.name)}`.execute(db)
	try {
		await load()
	} finally {
		await db.transaction().execute(async (trx) => {
			await sql`set local maintenance_work_mem = '256MB'`.execute(trx)
			for (const index of rows) await sql.raw(index.definition).execute(trx)
		})
	}
}

async function seedConversations(db: DB, w: Workspace) {
	const member = (index: RawBuilder<unknown>) => sql`(${sql.val(w.members)}::uuid[])[1 + ((${index}) % ${w.members.length})]`
	const channel = (index: number) => sql.val(w.channels[index])
	// Contacts in creation order are numbered 1…100 000; channel: half on the website link, 30 % WhatsApp, 10 % Telegram, 10 % the French link.
	await sql`
		insert into contact_identities (workspace_id, channel_id, contact_id, external_id, created_at)
		select ${w.id},
			case when (n * 31) % 10 < 5 then ${channel(0)}::uuid when (n * 31) % 10 < 8 then ${channel(1)}::uuid when (n * 31) % 10 = 8 then ${channel(2)}::uuid else ${channel(3)}::uuid end,
			id, md5(id::text), created_at
		from (select id, created_at, row_number() over (order by created_at, id) as n from contacts where workspace_id = ${w.id}) numbered
	`.execute(db)
	// One conversation a contact, a year of them, the newest 30 % mostly open; 20 % unassigned, the rest among the six members.
	await sql`
		insert into conversations (workspace_id, number, contact_id, channel_id, identity_id, status, snoozed_until, assignee_id, priority, last_activity_at, created_at, updated_at)
		select ${w.id}, n, contact_id, channel_id, identity_id, status,
			case when status = 'snoozed' then now() + (1 + n % 7) * interval '1 day' end,
			case when n = ${longThreadNumber} then ${sql.val(w.members[0])}::uuid when (n * 40503) % 100 < 20 then null else ${member(sql`(n * 40503) % 100`)} end,
			case when (n * 9973) % 100 < 70 then 0 when (n * 9973) % 100 < 82 then 1 when (n * 9973) % 100 < 92 then 2 when (n * 9973) % 100 < 98 then 3 else 4 end,
			created, created, created
		from (
			select numbered.*, identities.id as identity_id, identities.channel_id,
				now() - interval '366 days' + n * interval '315 seconds' as created,
				case when n = ${longThreadNumber} then 'open'
					when n > 70000 then case when h < 70 then 'open' when h < 85 then 'pending' when h < 95 then 'snoozed' else 'resolved' end
					else case when h < 5 then 'open' when h < 10 then 'pending' else 'resolved' end end as status
			from (select id as contact_id, row_number() over (order by created_at, id) as n, (row_number() over (order by created_at, id) * 2654435761) % 100 as h
				from contacts where workspace_id = ${w.id}) numbered
			join contact_identities identities on identities.contact_id = numbered.contact_id
		) planned
	`.execute(db)
	await sql`
		insert into conversation_numbers (workspace_id, last_number) values (${w.id}, ${conversationsPerWorkspace})
		on conflict (workspace_id) do update set last_number = greatest(conversation_numbers.last_number, excluded.last_number)
	`.execute(db)
	// 30 % of the conversations have a label, one in twenty a second one.
	await sql`
		insert into conversation_labels (workspace_id, conversation_id, label_id, created_at)
		select ${w.id}, id, (${sql.val(w.labels)}::uuid[])[1 + label % ${w.labels.length}], created_at
		from conversations, lateral (select (number * 13) % 6 as label where (number * 7) % 10 < 3 union all select (number * 13) % 6 + 1 where (number * 11) % 20 = 0) labels
		where workspace_id = ${w.id}
	`.execute(db)
}

/** The messages, inserted in time order across conversations as they would arrive (a thread's rows spread over the table). */
async function seedMessages(db: DB, w: Workspace, longLength: number) {
	const member = (index: RawBuilder<unknown>) => sql`(${sql.val(w.members)}::uuid[])[1 + ((${index}) % ${w.members.length})]`
	const gap = sql`case when number = ${longThreadNumber} then interval '365 days' / ${longLength} else (3 + number % 40) * interval '1 minute' end`
	const sender = sql`coalesce(assignee_id, ${member(sql`number + j`)})`
	const orderNumber = sql`(40000 + number)::text`
	const withOrder = (body: RawBuilder<unknown>) =>
		sql`${body} || case when (number + j) % 4 = 0 then case lang when 'ar' then ${sql.val(bodies.ar.order('#'))} when 'fr' then ${sql.val(bodies.fr.order('#'))} else ${sql.val(bodies.en.order('#'))} end else '' end`
	await sql`
			insert into messages (workspace_id, conversation_id, channel_id, direction, kind, body, activity, sender_id, status, error, created_at, updated_at)
			select ${w.id}, id, channel_id, direction, kind,
				case kind when 'activity' then ''
					when 'note' then ${byLanguage('note', sql`number + j`)}
					when 'text' then case direction when 'incoming' then replace(${withOrder(byLanguage('customer', sql`number * 7 + j * 3`))}, '#', ${orderNumber})
						else ${byLanguage('agent', sql`number * 5 + j`)} end end,
				case when kind = 'activity' then json_build_object('key', ${pick(activityKeys, sql`number + j`)}, 'values',
					json_build_object('actor', ${pick(w.memberNames, sql`number + j`)}, 'assignee', ${pick(w.memberNames, sql`number`)}, 'labels', 'billing'))::jsonb end,
				case when direction = 'outgoing' then ${sender} end,
				case when direction = 'outgoing' and kind = 'text' then case when (number * j) % 500 = 0 then 'failed' when number > 99000 then 'delivered' else 'read' end end,
				case when direction = 'outgoing' and kind = 'text' and (number * j) % 500 = 0 then 'The recipient is not reachable on this channel.' end,
				at, at
			from (
				select conversations.id, number, channel_id, assignee_id, lang, j, created_at + (j - 1) * ${gap} as at,
					case when j = 1 then 'incoming'
						when j = total then case when status = 'open' and number % 5 < 3 then 'incoming' else 'outgoing' end
						when j % 11 = 5 or j % 7 = 3 then 'outgoing'
						when j % 2 = 0 then 'outgoing' else 'incoming' end as direction,
					case when j = 1 or j = total then 'text' when j % 11 = 5 then 'activity' when j % 7 = 3 then 'note' else 'text' end as kind
				from conversations
				join (select id as contact_id, case when name ~ '[\u0600-\u06FF]' then 'ar' when hashtext(id::text) % 2 = 0 then 'fr' else 'en' end as lang
					from contacts where workspace_id = ${w.id}) contacts using (contact_id),
				lateral (select case when number = ${longThreadNumber} then ${longLength} else 2 + (number * 7919) % 17 - (number % 40 = 0)::int end as total) counted,
				lateral generate_series(1, total) as j
				where conversations.workspace_id = ${w.id}
			) planned
			order by at, j
		`.execute(db)
}

async function keepConversationValues(db: DB, w: Workspace) {
	// What the API keeps on each conversation, from its messages (the last one is always a text); the excerpt as excerptOf() cuts it.
	await sql`
		update conversations set incoming_count = kept.incoming, last_message_id = kept.last_id,
			last_message_excerpt = (select case when char_length(line) > 140 then left(line, 139) || '…' else line end from (select btrim(regexp_replace(last.body, '\\s+', ' ', 'g')) as line) folded),
			last_message_direction = last.direction, last_activity_at = last.created_at, updated_at = last.created_at, first_response_at = kept.first_response
		from (
			select conversation_id, count(*) filter (where direction = 'incoming') as incoming, max(id) as last_id,
				min(created_at) filter (where direction = 'outgoing' and kind = 'text') as first_response
			from messages where workspace_id = ${w.id} group by conversation_id
		) kept
		join messages last on last.id = kept.last_id
		where conversations.id = kept.conversation_id
	`.execute(db)
	// The assignee has read all but the last few of an open conversation, the rest entirely.
	await sql`
		insert into conversation_reads (conversation_id, user_id, seen_count, seen_at)
		select id, assignee_id, case when status = 'open' then greatest(incoming_count - number % 3, 0) else incoming_count end, last_activity_at
		from conversations where workspace_id = ${w.id} and assignee_id is not null
	`.execute(db)
	// A customer's last activity is their conversation's (receiveMessage keeps it).
	await sql`
		update contacts set last_activity_at = conversations.last_activity_at
		from conversations where conversations.contact_id = contacts.id and conversations.workspace_id = ${w.id} and contacts.workspace_id = ${w.id}
	`.execute(db)
}

/** A wake-up job per snoozed conversation, as a snooze through the API schedules (graphile-worker's own function; the server installed its schema). */
async function scheduleWakeUps(db: DB, workspaceId: string) {
	const installed = await sql<{ found: boolean }>`select to_regnamespace('graphile_worker') is not null as found`.execute(db)
	if (!installed.rows[0]?.found) return
	await sql`
		select graphile_worker.add_job('wake-snoozed', json_build_object('conversationId', id), run_at => snoozed_until, job_key => ${sql.lit(wakeJobKey(''))} || id)
		from conversations where workspace_id = ${workspaceId} and status = 'snoozed'
	`.execute(db)
}

/** Seeds the inbox of the contacts bench's two workspaces (once: a seeded workspace is skipped), then reads what the cases need. */
export async function seedInbox(
	databaseUrl: string,
	contacts: { workspaceId: string; otherWorkspaceId: string; token: string },
	log: (message: string) => void,
): Promise<InboxDataset> {
	const db = createDb(databaseUrl, 2)
	try {
		const started = Date.now()
		const userId = await benchAgent(db, contacts.workspaceId)
		const run = Math.random().toString(36).slice(2, 10)
		const longLength = longThreadLength()
		const pending: Workspace[] = []
		for (const [workspaceId, agent] of [
			[contacts.workspaceId, userId],
			[contacts.otherWorkspaceId, undefined],
		] as const) {
			const seeded = await db.selectFrom('conversationNumbers').select('lastNumber').where('workspaceId', '=', workspaceId).executeTakeFirst()
			if (seeded && seeded.lastNumber >= conversationsPerWorkspace) {
				log(`inbox of workspace ${workspaceId} already seeded`)
				continue
			}
			log(
				`seeding ${conversationsPerWorkspace.toLocaleString('en-US')} conversations and ${messagesPerWorkspace.toLocaleString('en-US')} messages in workspace ${workspaceId}`,
			)
			const step = Date.now()
			const workspace = await prepareWorkspace(db, workspaceId, agent, `${run}-${workspaceId.slice(0, 4)}`)
			await seedConversations(db, workspace)
			log(`  conversations in ${((Date.now() - step) / 1000).toFixed(1)} s`)
			pending.push(workspace)
		}
		if (pending.length) {
			// Both workspaces' messages under one index build.
			const step = Date.now()
			await withoutIndexes(db, 'messages', async () => {
				for (const workspace of pending) await seedMessages(db, workspace, longLength)
				log(`  messages in ${((Date.now() - step) / 1000).toFixed(1)} s, building their indexes`)
			})
			log(`  messages and indexes in ${((Date.now() - step) / 1000).toFixed(1)} s`)
		}
		for (const workspace of pending) {
			await keepConversationValues(db, workspace)
			await scheduleWakeUps(db, workspace.id)
		}
		// Written in bulk: the index pending lists are merged and the statistics taken here, not by autovacuum during the run.
		for (const table of pending.length
			? ['messages', 'conversations', 'conversation_labels', 'conversation_reads', 'contact_identities', 'contacts', 'contact_search']
			: []) {
			await sql`vacuum analyze ${sql.table(table)}`.execute(db)
		}
		// The reports' roll-ups of the year just written, now rather than by the server's job during the measured cases.
		if (pending.length) {
			const step = Date.now()
			for (const workspace of pending) {
				await rebuildReports(db, workspace.id)
			}
			await sql`vacuum analyze report_days`.execute(db)
			log(`  reports' roll-ups in ${((Date.now() - step) / 1000).toFixed(1)} s`)
		}
		// The gigabyte just written is flushed now, not by a checkpoint during the first measured cases.
		if (pending.length) await sql`checkpoint`.execute(db)
		const seedSeconds = (Date.now() - started) / 1000
		log(`inbox seeded in ${seedSeconds.toFixed(1)} s`)
		return { ...(await describe(db, contacts.workspaceId, userId)), otherWorkspaceId: contacts.otherWorkspaceId, token: contacts.token, seedSeconds }
	} finally {
		await db.destroy()
	}
}

/** The contacts bench's signed-in agent (bench/contacts.ts names it `bench-agent-…`). */
async function benchAgent(db: DB, workspaceId: string): Promise<string> {
	const agent = await db
		.selectFrom('members')
		.innerJoin('users', 'users.id', 'members.userId')
		.select('users.id')
		.where('members.workspaceId', '=', workspaceId)
		.where('users.email', 'like', 'bench-agent-%')
		.executeTakeFirstOrThrow()
	return agent.id
}

async function describe(db: DB, workspaceId: string, userId: string) {
	const label = await db.selectFrom('labels').select('id').where('workspaceId', '=', workspaceId).where('title', '=', 'billing').executeTakeFirstOrThrow()
	const long = await db
		.selectFrom('conversations')
		.select('id')
		.where('workspaceId', '=', workspaceId)
		.where('number', '=', longThreadNumber)
		.executeTakeFirstOrThrow()
	const deep = await db
		.selectFrom('messages')
		.select('id')
		.where('conversationId', '=', long.id)
		.orderBy('id', 'desc')
		.offset(deepThreadMessages)
		.limit(1)
		.executeTakeFirstOrThrow()
	const link = await db
		.selectFrom('channels')
		.select('id')
		.where('workspaceId', '=', workspaceId)
		.where('name', '=', channelSpecs[0].name)
		.executeTakeFirstOrThrow()
	const open = await db
		.selectFrom('conversations')
		.select('number')
		.where('workspaceId', '=', workspaceId)
		.where('channelId', '=', link.id)
		.where('status', '=', 'open')
		.orderBy('number', 'desc')
		.limit(1000)
		.execute()
	const counts = await sql<{ conversations: number; messages: number }>`
		select (select count(*) from conversations where workspace_id = ${workspaceId})::int as conversations,
			(select count(*) from messages where workspace_id = ${workspaceId})::int as messages`.execute(db)
	return {
		workspaceId,
		userId,
		labelId: label.id,
		deepBefore: String(deep.id),
		replyNumbers: open.map((row) => row.number),
		conversations: counts.rows[0]?.conversations ?? 0,
		messages: counts.rows[0]?.messages ?? 0,
	}
}
