import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import { containsPattern } from '#api/http/pagination.ts'
import { searchTerms } from '#api/contacts/queries.ts'
import { preparedQuery } from '#api/db/prepared.ts'
import { conversationStatuses, priorities, type ConversationStatus, type Database, type Message } from '#api/db/schema.ts'
import { type LabelSummary } from '#api/labels/queries.ts'
import { type ConversationCursor, type ConversationSort } from './cursor.ts'
import { attachmentsOfMessage } from '#api/attachments/queries.ts'
import { contactSatisfaction } from '#api/satisfaction/contact.ts'
import { type ConversationEventJson, type ConversationJson, type ConversationViewJson, type InboxSummaryJson, type MessageJson } from './json.ts'
import { type ListConversationsQuery } from './schemas.ts'
import { narrowingFor, teamsOf, visibleTo, type Reader } from './visibility.ts'

type Executor = Kysely<Database>

/** Unassigned conversations are counted under this key (migration 0011). */
export const unassignedKey = '00000000-0000-0000-0000-000000000000'

/** A conversation's labels by title, as JSON, read with its row. */
const labelsOfConversation = sql<LabelSummary[]>`(
	select coalesce(json_agg(json_build_object('id', labels.id, 'title', labels.title, 'color', labels.color) order by labels.title), '[]'::json)
	from conversation_labels join labels on labels.id = conversation_labels.label_id where conversation_labels.conversation_id = conversations.id
)`

const utc = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** Each sort's key (written by PostgreSQL, to travel in the cursor), its order and where the next page starts. */
const sortKeys: Record<ConversationSort, { text: RawBuilder<string>; order: string[]; after: (cursor: ConversationCursor) => Expression<SqlBool> }> = {
	activity: {
		text: utc('conversations.lastActivityAt'),
		order: ['conversations.lastActivityAt', 'conversations.id'],
		after: ({ key, id }) => sql<SqlBool>`(conversations.last_activity_at, conversations.id) < (${key}::timestamptz, ${id}::uuid)`,
	},
	created: {
		text: sql<string>`conversations.number::text`,
		order: ['conversations.number'],
		after: ({ key }) => sql<SqlBool>`conversations.number < ${Number(key)}`,
	},
	priority: {
		text: sql<string>`conversations.priority::text || '|' || ${utc('conversations.lastActivityAt')}`,
		order: ['conversations.priority', 'conversations.lastActivityAt', 'conversations.id'],
		after: ({ key, id }) => {
			const [priority, activity] = key.split('|')
			return sql<SqlBool>`(conversations.priority, conversations.last_activity_at, conversations.id) < (${Number(priority)}::smallint, ${activity}::timestamptz, ${id}::uuid)`
		},
	},
}

/** Conversations with what their JSON shows; `unread` is the reader's. */
function selectConversations(db: Executor, readerId: string) {
	return (
		db
			.selectFrom('conversations')
			.innerJoin('contacts', 'contacts.id', 'conversations.contactId')
			.innerJoin('channels', 'channels.id', 'conversations.channelId')
			.leftJoin('users as assignees', 'assignees.id', 'conversations.assigneeId')
			.leftJoin('teams', 'teams.id', 'conversations.teamId')
			.leftJoin('conversationReads', (join) =>
				join.onRef('conversationReads.conversationId', '=', 'conversations.id').on('conversationReads.userId', '=', readerId),
			)
			// Who wrote the last message, by its primary key: the list names the agent who replied.
			.leftJoin('messages as lastMessages', 'lastMessages.id', 'conversations.lastMessageId')
			.leftJoin('users as lastSenders', 'lastSenders.id', 'lastMessages.senderId')
			.select([
				'conversations.id',
				'conversations.number',
				'conversations.status',
				'conversations.snoozedUntil',
				'conversations.priority',
				'conversations.contactId',
				'contacts.name as contactName',
				'contacts.email as contactEmail',
				'contacts.unverifiedEmail as contactUnverifiedEmail',
				'contacts.phone as contactPhone',
				'contacts.avatarColor as contactAvatarColor',
				'conversations.channelId',
				'channels.kind as channelKind',
				'channels.name as channelName',
				'conversations.assigneeId',
				'assignees.name as assigneeName',
				'conversations.teamId',
				'teams.name as teamName',
				sql<number>`greatest(conversations.incoming_count - coalesce(conversation_reads.seen_count, 0), 0)`.as('unreadCount'),
				'conversations.lastMessageExcerpt',
				'conversations.lastMessageDirection',
				'lastMessages.senderId as lastSenderId',
				'lastSenders.name as lastSenderName',
				'conversations.lastActivityAt',
				'conversations.firstResponseAt',
				'conversations.createdAt',
			])
			.select(labelsOfConversation.as('labels'))
	)
}

type ConversationRow = Awaited<ReturnType<ReturnType<typeof selectConversations>['executeTakeFirstOrThrow']>>

export function conversationJson(row: ConversationRow): ConversationJson {
	return {
		id: row.id,
		number: row.number,
		status: row.status,
		snoozedUntil: row.snoozedUntil?.toISOString() ?? null,
		priority: priorities[row.priority] ?? 'none',
		contact: {
			id: row.contactId,
			name: row.contactName,
			email: row.contactEmail,
			unverifiedEmail: row.contactUnverifiedEmail,
			phone: row.contactPhone,
			avatarColor: row.contactAvatarColor,
		},
		channel: { id: row.channelId, kind: row.channelKind, name: row.channelName },
		assignee: row.assigneeId ? { id: row.assigneeId, name: row.assigneeName ?? '' } : null,
		team: row.teamId ? { id: row.teamId, name: row.teamName ?? '' } : null,
		labels: row.labels,
		unreadCount: row.unreadCount,
		lastMessage:
			row.lastMessageExcerpt !== null && row.lastMessageDirection
				? {
						excerpt: row.lastMessageExcerpt,
						direction: row.lastMessageDirection,
						sender: row.lastSenderId ? { id: row.lastSenderId, name: row.lastSenderName ?? '' } : null,
					}
				: null,
		lastActivityAt: row.lastActivityAt.toISOString(),
		firstResponseAt: row.firstResponseAt?.toISOString() ?? null,
		createdAt: row.createdAt.toISOString(),
	}
}

// Fixed shapes, built once and planned once per connection (api/db/prepared.ts).
// Their values are flat: a placeholder stands for each (api/db/prepared.ts), the reader's two included.
const conversationByNumber = preparedQuery((db: Executor, values: { readerId: string; ownTeamsOnly: boolean; workspaceId: string; number: number }) =>
	selectConversations(db, values.readerId)
		.where('conversations.workspaceId', '=', values.workspaceId)
		.where('conversations.number', '=', values.number)
		.where(visibleTo(values.workspaceId, { id: values.readerId, ownTeamsOnly: values.ownTeamsOnly })),
)
const otherConversationsOfContact = preparedQuery(
	(db: Executor, values: { readerId: string; ownTeamsOnly: boolean; workspaceId: string; contactId: string; conversationId: string; limit: number }) =>
		selectConversations(db, values.readerId)
			.where('conversations.workspaceId', '=', values.workspaceId)
			.where('conversations.contactId', '=', values.contactId)
			.where('conversations.id', '!=', values.conversationId)
			.where(visibleTo(values.workspaceId, { id: values.readerId, ownTeamsOnly: values.ownTeamsOnly }))
			.orderBy('conversations.lastActivityAt', 'desc')
			.orderBy('conversations.id', 'desc')
			.limit(values.limit),
)
const conversationsOfIds = preparedQuery((db: Executor, values: { readerId: string; ids: string[] }) =>
	selectConversations(db, values.readerId).where('conversations.id', '=', sql<string>`any(${values.ids}::uuid[])`),
)

/** The workspace's conversation `#number` as `reader` sees it; undefined when there is none, or not for them. */
export async function findConversation(db: Executor, workspaceId: string, number: number, reader: Reader): Promise<ConversationJson | undefined> {
	const [row] = await conversationByNumber(db, { readerId: reader.id, ownTeamsOnly: reader.ownTeamsOnly, workspaceId, number })
	return row && conversationJson(row)
}

/**
 * What an inbox shows of the workspace's conversation `#number` as `reader` sees it: the
 * conversation, a page of its thread, and the `others` latest other conversations of its contact.
 */
export async function conversationView(
	db: Executor,
	workspaceId: string,
	number: number,
	reader: Reader,
	query: { before?: string; limit: number; others: number },
): Promise<ConversationViewJson | undefined> {
	const conversation = await findConversation(db, workspaceId, number, reader)
	if (!conversation) return undefined
	const [thread, others, satisfaction] = await Promise.all([
		messagesPage(db, conversation.id, query),
		otherConversationsOfContact(db, {
			readerId: reader.id,
			ownTeamsOnly: reader.ownTeamsOnly,
			workspaceId,
			contactId: conversation.contact.id,
			conversationId: conversation.id,
			limit: query.others,
		}),
		contactSatisfaction(db, workspaceId, conversation.contact.id, reader),
	])
	return { conversation, thread, otherConversations: others.map(conversationJson), contactSatisfaction: satisfaction }
}

/** The conversations of `ids` as `readerId` sees them, in that order: one statement of fixed shape, planned once per connection. */
async function conversationsById(db: Executor, readerId: string, ids: string[]): Promise<ConversationJson[]> {
	if (ids.length === 0) return []
	const rows = await conversationsOfIds(db, { readerId, ids })
	const byId = new Map(rows.map((row) => [row.id, row]))
	return ids.flatMap((id) => {
		const row = byId.get(id)
		return row ? [conversationJson(row)] : []
	})
}

// No member has this id: read by it, every incoming message is unread.
const nobody = '00000000-0000-0000-0000-000000000000'

/**
 * The conversations of `ids` as the workspace's channel carries them (api/conversations/events.ts):
 * the list's row, without the unread count, which is each reader's own.
 */
export async function conversationsForEvents(db: Executor, ids: string[]): Promise<Map<string, ConversationEventJson>> {
	const rows = await conversationsById(db, nobody, ids)
	return new Map(rows.map(({ unreadCount: _unread, ...row }) => [row.id, row]))
}

/** A conversation whose messages (texts and notes) have every word of the search, as a word or the start of one (conversation_words, migration 0013; both sides folded by crm_fold). */
const matchingWords = (search: string) => sql`conversation_words.words @@ crm_search_query(${search})`

/** The conditions on `contact_search` of a contact whose name, e-mail, phone or company has every word, as the contacts list searches them (its trigram index). */
function matchingContacts(workspaceId: string, search: string) {
	const words = searchTerms(search).map((term) => sql`contact_search.search_text like crm_fold(${containsPattern(term)})`)
	return words.length ? sql`contact_search.workspace_id = ${workspaceId} and ${sql.join(words, sql` and `)}` : undefined
}

/**
 * Above this many matching conversations (as PostgreSQL estimates them from the GIN index's
 * statistics), a search walks the list's index and checks each conversation's words until a page
 * is full (about 26 × 100 000 / matches probes); below it, it reads every match through the GIN
 * index and then their conversations by id. Both cost about the same near √(26 × 100 000) ≈ 1 600
 * (docs/decisions/010-inbox.md, "The search").
 */
export const broadSearch = 2_000

/** PostgreSQL's estimate of the conversations and contacts a search matches: planning only, no match is read. */
async function estimatedMatches(db: Executor, workspaceId: string, search: string): Promise<number> {
	const contacts = matchingContacts(workspaceId, search)
	const ofContacts = contacts ? sql`union all select 1 from contact_search where ${contacts}` : sql``
	const { rows } = await sql<
		Record<string, unknown>
	>`explain (format json) select 1 from conversation_words where conversation_words.workspace_id = ${workspaceId} and ${matchingWords(search)} ${ofContacts}`.execute(
		db,
	)
	const [plan] = (rows[0] ? Object.values(rows[0])[0] : []) as Array<{ Plan?: { 'Plan Rows'?: number } }>
	return plan?.Plan?.['Plan Rows'] ?? 0
}

/** The conversations a search finds: one of their messages (text or note) has every word, or their contact matches. */
async function searchCondition(db: Executor, workspaceId: string, search: string, broadAbove: number): Promise<Expression<SqlBool>> {
	const contacts = matchingContacts(workspaceId, search)
	if ((await estimatedMatches(db, workspaceId, search)) > broadAbove) {
		// `offset 0` keeps each probe per conversation: without it PostgreSQL may hash every match first, which is what a broad search must avoid.
		const inWords = sql<SqlBool>`exists (select 1 from conversation_words where conversation_words.conversation_id = conversations.id and ${matchingWords(search)} offset 0)`
		if (!contacts) return inWords
		return sql<SqlBool>`(${inWords} or exists (select 1 from contact_search where contact_search.contact_id = conversations.contact_id and ${contacts} offset 0))`
	}
	// An array, so that the conversations are read by id (the primary key) rather than by scanning them all for a join.
	const ofContacts = contacts
		? sql`union select conversations.id from conversations join contact_search on contact_search.contact_id = conversations.contact_id where conversations.workspace_id = ${workspaceId} and ${contacts}`
		: sql``
	return sql<SqlBool>`conversations.id = any(array(select conversation_words.conversation_id from conversation_words where conversation_words.workspace_id = ${workspaceId} and ${matchingWords(search)} ${ofContacts}))`
}

export type ConversationPage = { conversations: ConversationJson[]; next?: ConversationCursor }

/** A list's filters and search as conditions on `conversations`, its status tab and page aside, within what `reader` may see. */
export async function listConditions(
	db: Executor,
	workspaceId: string,
	reader: Reader,
	query: ListConversationsQuery,
	broadAbove = broadSearch,
): Promise<Array<Expression<SqlBool>>> {
	const conditions = narrowingFor(workspaceId, reader)
	if (query.assignee === 'me') conditions.push(sql<SqlBool>`conversations.assignee_id = ${reader.id}`)
	else if (query.assignee === 'unassigned') conditions.push(sql<SqlBool>`conversations.assignee_id is null`)
	else if (query.assignee !== 'all') conditions.push(sql<SqlBool>`conversations.assignee_id = ${query.assignee}`)
	if (query.team === 'mine') conditions.push(sql<SqlBool>`conversations.team_id = any(${teamsOf(workspaceId, reader.id)})`)
	else if (query.team) conditions.push(sql<SqlBool>`conversations.team_id = ${query.team}`)
	if (query.channelId) conditions.push(sql<SqlBool>`conversations.channel_id = ${query.channelId}`)
	if (query.contactId) conditions.push(sql<SqlBool>`conversations.contact_id = ${query.contactId}`)
	if (query.priority) conditions.push(sql<SqlBool>`conversations.priority = ${priorities.indexOf(query.priority)}`)
	if (query.labelId) {
		conditions.push(
			sql<SqlBool>`exists (select 1 from conversation_labels where conversation_labels.conversation_id = conversations.id and conversation_labels.label_id = ${query.labelId})`,
		)
	}
	if (query.search) conditions.push(await searchCondition(db, workspaceId, query.search, broadAbove))
	return conditions
}

/**
 * One page of the list in keyset order (newest or most urgent first), reading `limit + 1` rows to
 * know whether another follows. In two statements: the page's ids from `conversations` alone, then
 * their rows with everything the list shows. As one statement, planning its joins for every
 * combination of filters took 1.5 to 5 ms, more than running it (decision 010).
 * `conditions` are the list's filters and search (`listConditions`).
 */
export async function listConversations(
	db: Executor,
	workspaceId: string,
	readerId: string,
	query: ListConversationsQuery,
	conditions: Array<Expression<SqlBool>>,
): Promise<ConversationPage> {
	const key = sortKeys[query.sort]
	let page = db
		.selectFrom('conversations')
		.select(['conversations.id', key.text.as('sortKey')])
		.where('conversations.workspaceId', '=', workspaceId)
	if (query.status !== 'all') page = page.where('conversations.status', '=', query.status)
	for (const condition of conditions) page = page.where(condition)
	if (query.after) page = page.where(key.after(query.after))
	for (const column of key.order) page = page.orderBy(sql.ref(column), 'desc')
	const found = await page.limit(query.limit + 1).execute()
	const last = found[query.limit - 1]
	return {
		conversations: await conversationsById(
			db,
			readerId,
			found.slice(0, query.limit).map((row) => row.id),
		),
		next: found.length > query.limit && last ? { sort: query.sort, key: last.sortKey, id: last.id } : undefined,
	}
}

export type TabCounts = Record<ConversationStatus, number>

/** How many conversations each status tab has for an assignee (or everyone): a few rows kept by triggers, never a count of the table. */
export async function tabCounts(db: Executor, workspaceId: string, assigneeKey?: string): Promise<TabCounts> {
	let query = db
		.selectFrom('conversationCounts')
		.select(['status', sql<number>`sum(count)::int`.as('count')])
		.where('workspaceId', '=', workspaceId)
	if (assigneeKey) query = query.where('assigneeKey', '=', assigneeKey)
	const rows = await query.groupBy('status').execute()
	const counts = Object.fromEntries(conversationStatuses.map((status) => [status, 0])) as TabCounts
	for (const row of rows) counts[row.status] = row.count
	return counts
}

/**
 * Where the tabs' counts stop when the list is filtered or searched: counting every match of a
 * broad word would read them all (decision 010); up to 100 a tab reads at most a page's worth of
 * probes per hundred matches, and "100+" says enough of a search.
 */
export const filteredCountsLimit = 100

/** How many conversations of each status meet `conditions`, each count stopping at `filteredCountsLimit`. */
export async function filteredCounts(db: Executor, workspaceId: string, conditions: Array<Expression<SqlBool>>): Promise<TabCounts> {
	const where = sql.join([sql`conversations.workspace_id = ${workspaceId}`, ...conditions], sql` and `)
	const counts = conversationStatuses.map(
		(status) =>
			sql`(select count(*)::int from (select 1 from conversations where ${where} and conversations.status = ${status} limit ${filteredCountsLimit}) as capped) as ${sql.ref(status)}`,
	)
	const { rows } = await sql<TabCounts>`select ${sql.join(counts)}`.execute(db)
	return rows[0]!
}

/**
 * What `GET /conversations` answers: a page, and the tabs' counts with the same filters. The kept
 * counts know the assignee only: any other filter or a search counts the matches, up to a limit, and
 * so does a reader narrowed to their teams (but for their own conversations, which they all see).
 */
export async function conversationList(db: Executor, workspaceId: string, reader: Reader, query: ListConversationsQuery, broadAbove = broadSearch) {
	const assigneeKey =
		query.assignee === 'me' ? reader.id : query.assignee === 'unassigned' ? unassignedKey : query.assignee === 'all' ? undefined : query.assignee
	const conditions = await listConditions(db, workspaceId, reader, query, broadAbove)
	const narrowed =
		Boolean(query.team || query.channelId || query.contactId || query.priority || query.labelId || query.search) ||
		(reader.ownTeamsOnly && query.assignee !== 'me')
	const [page, counts] = await Promise.all([
		listConversations(db, workspaceId, reader.id, query, conditions),
		narrowed ? filteredCounts(db, workspaceId, conditions) : tabCounts(db, workspaceId, assigneeKey),
	])
	return { page, counts, countsLimit: narrowed ? filteredCountsLimit : null }
}

/**
 * The sidebar's open conversations: the reader's and nobody's (kept counts), and those of the
 * reader's teams, counted by the team index (conversations_team_activity_idx). A reader narrowed to
 * their teams counts nobody's among their teams' only.
 */
export async function inboxSummary(db: Executor, workspaceId: string, reader: Reader): Promise<InboxSummaryJson> {
	const [rows, teams] = await Promise.all([
		db
			.selectFrom('conversationCounts')
			.select(['assigneeKey', 'count'])
			.where('workspaceId', '=', workspaceId)
			.where('status', '=', 'open')
			.where('assigneeKey', 'in', [reader.id, unassignedKey])
			.execute(),
		db.selectFrom('teamMembers').select('teamId').where('workspaceId', '=', workspaceId).where('userId', '=', reader.id).orderBy('teamId').execute(),
	])
	const myTeamIds = teams.map((team) => team.teamId)
	const ofMyTeams = myTeamIds.length
		? await db
				.selectFrom('conversations')
				.select([sql<number>`count(*)::int`.as('count'), sql<number>`(count(*) filter (where assignee_id is null))::int`.as('unassigned')])
				.where('workspaceId', '=', workspaceId)
				.where('teamId', 'in', myTeamIds)
				.where('status', '=', 'open')
				.executeTakeFirstOrThrow()
		: { count: 0, unassigned: 0 }
	const countOf = (key: string) => rows.find((row) => row.assigneeKey === key)?.count ?? 0
	return {
		mine: countOf(reader.id),
		unassigned: reader.ownTeamsOnly ? ofMyTeams.unassigned : countOf(unassignedKey),
		myTeams: ofMyTeams.count,
		myTeamIds,
	}
}

type MessageRow = Message & { senderName: string | null; attachments: MessageJson['attachments'] }

export function messageJson(row: MessageRow): MessageJson {
	return {
		// bigint, read as a number by the pool (api/db/database.ts): a string in JSON, as the contract says.
		id: String(row.id),
		conversationId: row.conversationId,
		direction: row.direction,
		kind: row.kind,
		body: row.body,
		activity: row.activity,
		sender: row.senderId ? { id: row.senderId, name: row.senderName ?? '' } : null,
		status: row.status,
		error: row.error,
		attachments: row.attachments,
		createdAt: row.createdAt.toISOString(),
	}
}

/** Messages with their sender's name and their files, as a thread shows them: one statement. */
function selectMessages(db: Executor) {
	return db
		.selectFrom('messages')
		.leftJoin('users', 'users.id', 'messages.senderId')
		.selectAll('messages')
		.select('users.name as senderName')
		.select(attachmentsOfMessage.as('attachments'))
}

export async function findMessage(db: Executor, messageId: string): Promise<MessageJson | undefined> {
	const row = await selectMessages(db).where('messages.id', '=', messageId).executeTakeFirst()
	return row && messageJson(row)
}

/** The messages of `ids`, by id, as a thread shows them. */
export async function messagesById(db: Executor, ids: string[]): Promise<Map<string, MessageJson>> {
	if (ids.length === 0) return new Map()
	const rows = await selectMessages(db).where('messages.id', 'in', ids).execute()
	return new Map(rows.map((row) => [String(row.id), messageJson(row)]))
}

/** A page of a thread by keyset from the newest: the `limit` messages before `before`, answered oldest first. */
export async function messagesPage(
	db: Executor,
	conversationId: string,
	query: { before?: string; limit: number },
): Promise<{ messages: MessageJson[]; olderCursor: string | null }> {
	let page = selectMessages(db).where('messages.conversationId', '=', conversationId)
	if (query.before) page = page.where('messages.id', '<', query.before)
	const rows = await page
		.orderBy('messages.id', 'desc')
		.limit(query.limit + 1)
		.execute()
	const messages = rows.slice(0, query.limit).reverse().map(messageJson)
	return { messages, olderCursor: rows.length > query.limit ? (messages[0]?.id ?? null) : null }
}
