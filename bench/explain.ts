/**
 * `npm run bench:explain`: the query plans of the contacts list and the inbox (list, search,
 * summary, thread) over the bench dataset. Starts an embedded PostgreSQL in --dir (kept, so a
 * second run skips the seeds: 2 × 100 000 contacts, then 2 × 1 000 000 messages, which take
 * minutes and are seeded only when an inbox case is asked for), runs each case through the API's
 * own query code while recording its SQL, and prints EXPLAIN (ANALYZE, BUFFERS) of every statement
 * with its execution time.
 *
 *   npm run bench:explain -- [--dir /tmp/crm-explain] [--only Arabic | --only inbox] [--serve]
 *
 * --serve leaves the database running and prints its URL (for psql), until Ctrl-C.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { CamelCasePlugin, Kysely, PostgresDialect, type CompiledQuery } from 'kysely'
import pg from 'pg'
import { findSession } from '#api/auth/sessions.ts'
import { encodeCursor, type Cursor } from '#api/contacts/cursor.ts'
import { contactPage, listContacts } from '#api/contacts/queries.ts'
import { listContactsQuery } from '#api/contacts/schemas.ts'
import { ensureDatabase, migrateToLatest } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { type Database } from '#api/db/schema.ts'
import { listLabels } from '#api/labels/queries.ts'
import { conversationList, inboxSummary, messagesPage } from '#api/conversations/queries.ts'
import { everyone } from '#api/conversations/visibility.ts'
import { listConversationsQuery as conversationsQuery, listMessagesQuery } from '#api/conversations/schemas.ts'
import { deepPageRows, seedContacts, type ContactsDataset } from './contacts.ts'
import { arabicSearchWord, longThreadNumber, searchWord, seedInbox, type InboxDataset } from './inbox.ts'

const { values: options } = parseArgs({
	options: { dir: { type: 'string', default: '/tmp/crm-explain' }, only: { type: 'string' }, serve: { type: 'boolean', default: false } },
})
const log = (message: string) => process.stderr.write(`[explain] ${message}\n`)
const quiet = { info: log, debug: () => {}, error: log }

const cluster = await startEmbeddedPostgres({ directory: path.join(options.dir, 'postgres'), log: quiet })
const url = cluster.url('crm')
await ensureDatabase(cluster.url('postgres'), 'crm')

// Every statement the API code sends, to be explained afterwards.
let recorded: CompiledQuery[] = []
const pool = new pg.Pool({ connectionString: url, max: 4 })
const db = new Kysely<Database>({
	dialect: new PostgresDialect({ pool }),
	plugins: [new CamelCasePlugin()],
	log: (event) => void recorded.push(event.query),
})

try {
	await migrateToLatest(db, quiet)
	const datasetFile = path.join(options.dir, 'dataset.json')
	const dataset: ContactsDataset = fs.existsSync(datasetFile) ? JSON.parse(fs.readFileSync(datasetFile, 'utf8')) : await seedContacts(url, log)
	fs.writeFileSync(datasetFile, JSON.stringify(dataset))
	// The inbox's 2 × 1 000 000 messages take minutes: seeded only when an inbox case is asked for.
	const wantsInbox = !options.only || options.only.startsWith('inbox')
	const inbox = wantsInbox ? await seedInbox(url, dataset, log) : undefined
	if (options.serve) {
		process.stdout.write(`${url}\nworkspace ${dataset.workspaceId}, label ${dataset.labelId}, token ${dataset.token}\n`)
		await new Promise((resolve) => process.once('SIGINT', resolve))
	} else {
		await explainCases(dataset)
		if (inbox) await explainInboxCases(inbox)
	}
} finally {
	await db.destroy()
	await cluster.stop()
}

/** A cursor `rows` deep into the default order, followed as a browser would. */
async function deepCursor(dataset: ContactsDataset, rows: number): Promise<string> {
	let after: Cursor | undefined
	for (let seen = 0; seen < rows; seen += 100) {
		const page = await contactPage(db, dataset.workspaceId, { ...listContactsQuery.parse({ limit: '100' }), after, narrow: false })
		after = page.next
	}
	return after ? encodeCursor(after) : ''
}

async function explainCases(dataset: ContactsDataset) {
	const cases: Array<[string, Record<string, string>]> = [
		['first page', {}],
		[`page ${deepPageRows} rows deep`, { cursor: await deepCursor(dataset, deepPageRows) }],
		['search Latin `mohamed`', { search: 'mohamed' }],
		['search Arabic `محمد`', { search: 'محمد' }],
		['search phone digits', { search: '1001234' }],
		['label filter, newest first', { label: dataset.labelId, sort: 'created' }],
		['label list', {}],
	]
	for (const [name, query] of cases) {
		if (options.only && !name.includes(options.only)) continue
		recorded = []
		// What one request runs: authentication with the membership, the page with its labels (or the label list).
		const membership = (await findSession(db, dataset.token, dataset.workspaceId))?.membership
		if (!membership) throw new Error('the bench member is not a member')
		if (name === 'label list') await listLabels(db, dataset.workspaceId)
		else await listContacts(db, membership.workspace, listContactsQuery.parse(query))
		process.stdout.write(`\n## ${name}\n`)
		for (const statement of recorded.splice(0)) await explain(statement)
	}
}

/** What each inbox request of the bench runs past authentication, through the API's own query code (api/conversations/router.ts). */
async function explainInboxCases(dataset: InboxDataset) {
	const { workspaceId, userId } = dataset
	const list = async (query: Record<string, string>, reader = everyone(userId)) => {
		await conversationList(db, workspaceId, reader, conversationsQuery.parse(query))
	}
	const thread = async (query: Record<string, string>) => {
		const conversation = await db
			.selectFrom('conversations')
			.select('id')
			.where('workspaceId', '=', workspaceId)
			.where('number', '=', longThreadNumber)
			.executeTakeFirstOrThrow()
		await messagesPage(db, conversation.id, listMessagesQuery.parse(query))
	}
	const cases: Array<[string, () => Promise<unknown>]> = [
		['inbox: open tab', () => list({})],
		['inbox: mine', () => list({ assignee: 'me' })],
		['inbox: unassigned', () => list({ assignee: 'unassigned' })],
		['inbox: open tab, an agent who sees only their teams’', () => list({}, { id: userId, ownTeamsOnly: true })],
		['inbox: a label (billing)', () => list({ labelId: dataset.labelId })],
		['inbox: all statuses, by priority', () => list({ status: 'all', sort: 'priority' })],
		[`inbox: search ${searchWord}`, () => list({ search: searchWord })],
		[`inbox: search ${arabicSearchWord}`, () => list({ search: arabicSearchWord })],
		['inbox: search an order number (one conversation)', () => list({ search: '52345', status: 'all' })],
		['inbox: summary', () => inboxSummary(db, workspaceId, everyone(userId))],
		['inbox: thread newest page', () => thread({})],
		['inbox: thread 1 000 messages back', () => thread({ before: dataset.deepBefore })],
	]
	for (const [name, run] of cases) {
		if (options.only && !name.includes(options.only)) continue
		recorded = []
		await run()
		process.stdout.write(`\n## ${name}\n`)
		for (const statement of recorded.splice(0)) await explain(statement)
	}
}

async function explain(statement: CompiledQuery) {
	// Warm first, as the server would be.
	await pool.query(statement.sql, [...statement.parameters])
	// The search's own estimate of its matches is an EXPLAIN already: shown, not explained again.
	if (/^\s*explain\b/i.test(statement.sql)) {
		process.stdout.write(`\n${statement.sql.replace(/\s+/g, ' ').slice(0, 300)}\n  (the planner's estimate, read by the query code)\n`)
		return
	}
	const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off, summary on) ${statement.sql}`, [...statement.parameters])
	const plan = rows.map((row) => row['QUERY PLAN'])
	const timings = plan.filter((line) => /^(Planning|Execution) Time/.test(line)).join(', ')
	process.stdout.write(
		`\n${statement.sql.replace(/\s+/g, ' ').slice(0, 300)}\n  ${timings}\n${plan
			.filter((line) => !/^(Planning|Execution)/.test(line))
			.map((line) => `    ${line}`)
			.join('\n')}\n`,
	)
}
