import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, test } from 'vitest'
import { openDatabase } from '#api/db/database.ts'
import { demoCampaign } from '#api/db/seed/campaigns.ts'
import { demoMessagingChannels } from '#api/db/seed/channels.ts'
import { demoChannel, demoThreads } from '#api/db/seed/conversations.ts'
import { demoContactCount } from '#api/db/seed/demo.ts'
import { historyConversations } from '#api/db/seed/history.ts'
import { every, none } from '#api/reports/rollup.ts'

// Each test has a DATA_DIR of its own with its own embedded PostgreSQL, as `npm start` would.
const directories: string[] = []
function dataDir() {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-quick-start-'))
	directories.push(directory)
	return directory
}
afterAll(() => {
	for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true })
})

const lines: string[] = []
const log = { info: (message: string) => lines.push(message), debug: () => {}, error: (message: string) => lines.push(message) }

/** Runs a TypeScript entry point in another process, as `npm run …` does, on `directory`. */
function run(args: string[], directory: string): Promise<{ code: number | null; output: string; pid: number }> {
	const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: directory, NODE_ENV: 'development' }
	const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
	let output = ''
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
	return new Promise((resolve) => child.on('close', (code) => resolve({ code, output, pid: child.pid ?? 0 })))
}

function isAlive(pid: number) {
	try {
		process.kill(pid, 0)
		return true
	} catch {
		return false
	}
}

const postmasterPid = (directory: string) => Number(fs.readFileSync(path.join(directory, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])

describe('the embedded PostgreSQL is shared by the processes of one DATA_DIR', () => {
	// Two seeding processes in a row: each starts Node, hashes the demo password, imports 300 contacts and plays 30 conversations.
	test('the demo seed runs beside a running server, uses its database, leaves it running, and is idempotent', { timeout: 90_000 }, async () => {
		const directory = dataDir()
		const server = await openDatabase({ dataDir: directory, log })
		try {
			const first = await run(['api/db/seed.ts'], directory)
			expect(first.output).toContain('using the embedded PostgreSQL already running')
			expect(first.output).toContain('sign in as demo@example.com')
			expect(first.code).toBe(0)

			// The server's connection still works: the seed did not stop the cluster it did not start.
			const workspace = await server.db.selectFrom('workspaces').select('id').where('slug', '=', 'demo').executeTakeFirstOrThrow()
			const count = async () =>
				Number(
					(
						await server.db
							.selectFrom('contacts')
							.select((eb) => eb.fn.countAll().as('n'))
							.where('workspaceId', '=', workspace.id)
							.executeTakeFirstOrThrow()
					).n,
				)
			expect(await count()).toBe(demoContactCount + demoMessagingChannels.length)
			const roles = await server.db.selectFrom('members').select('role').where('workspaceId', '=', workspace.id).execute()
			expect(roles.map((member) => member.role).sort()).toEqual(['admin', 'agent', 'owner'])
			const canned = await server.db.selectFrom('cannedResponses').select('shortCode').where('workspaceId', '=', workspace.id).execute()
			expect(canned.map((row) => row.shortCode)).toContain('مرحبا')

			const scripts = await sql<{ arabic: number; latin: number; labelled: number; phones: number; companies: number }>`
				select count(*) filter (where name ~ '[\u0600-\u06FF]')::int as arabic,
				       count(*) filter (where name ~ '[A-Za-zÀ-ÿ]')::int as latin,
				       count(*) filter (where exists (select 1 from contact_labels cl where cl.contact_id = contacts.id))::int as labelled,
				       count(phone)::int as phones, count(company)::int as companies
				from contacts where workspace_id = ${workspace.id}`.execute(server.db)
			const figures = scripts.rows[0]
			expect(figures?.arabic).toBeGreaterThanOrEqual(90)
			expect(figures?.latin).toBeGreaterThanOrEqual(180)
			expect(figures?.labelled).toBeGreaterThan(100)
			expect(figures?.phones).toBeGreaterThan(200)
			expect(figures?.companies).toBeGreaterThan(100)

			// The chat link's conversations, played through the inbound path and the API's actions.
			const channel = await server.db.selectFrom('channels').selectAll().where('slug', '=', demoChannel.slug).executeTakeFirstOrThrow()
			expect(channel).toMatchObject({ workspaceId: workspace.id, kind: 'link', enabled: true })
			// The played conversations come first; the year of history after them (history.ts).
			const played = demoThreads.length + demoMessagingChannels.length
			const conversations = async () =>
				(
					await server.db
						.selectFrom('conversations')
						.select((eb) => eb.fn.countAll<string>().as('n'))
						.where('channelId', '=', channel.id)
						.where('number', '<=', played)
						.executeTakeFirstOrThrow()
				).n
			expect(Number(await conversations())).toBe(demoThreads.length)
			const inbox = await sql<Record<string, number>>`
				select count(distinct status)::int as statuses, count(distinct assignee_id)::int as assignees,
				       count(*) filter (where exists (select 1 from conversation_labels cl where cl.conversation_id = c.id))::int as labelled,
				       count(*) filter (where incoming_count <> (select count(*) from messages m where m.conversation_id = c.id and m.direction = 'incoming'))::int as "wrongCounts",
				       count(*) filter (where last_message_id is distinct from (select max(id) from messages m where m.conversation_id = c.id and m.kind = 'text'))::int as "wrongLast",
				       (select last_number from conversation_numbers where workspace_id = ${workspace.id}) as "lastNumber"
				from conversations c where channel_id = ${channel.id} and number <= ${played}`.execute(server.db)
			expect(inbox.rows[0]).toEqual({
				statuses: 4,
				assignees: 3,
				labelled: expect.any(Number),
				wrongCounts: 0,
				wrongLast: 0,
				lastNumber: played + historyConversations,
			})
			expect(inbox.rows[0]?.labelled).toBeGreaterThan(5)
			const messages = await sql<Record<string, number>>`
				select count(*) filter (where direction = 'incoming' and kind = 'text')::int as incoming,
				       count(*) filter (where direction = 'outgoing' and kind = 'text')::int as replies,
				       count(*) filter (where kind = 'note')::int as notes,
				       count(*) filter (where kind = 'activity')::int as activity,
				       count(*) filter (where body ~ '[؀-ۿ]')::int as arabic,
				       count(*) filter (where body ~ '(Bonjour|merci)')::int as french,
				       count(*) filter (where body ~ '(Hi|thanks|Thank you)')::int as english
				from messages where channel_id = ${channel.id} and conversation_id in (select id from conversations where number <= ${played} and channel_id = ${channel.id})`.execute(
				server.db,
			)
			for (const [kind, count] of Object.entries(messages.rows[0] ?? {})) expect(count, kind).toBeGreaterThan(2)

			// A conversation on every messaging kind, on switched-off channels without credentials; their replies never leave.
			const perKind = async () =>
				(
					await sql<{ kind: string; enabled: boolean; credentials: string | null; conversations: number; pending: number }>`
						select ch.kind, ch.enabled, ch.credentials, (select count(*)::int from conversations c where c.channel_id = ch.id and c.number <= ${played}) as conversations,
						       (select count(*)::int from messages m where m.channel_id = ch.id and m.status = 'pending') as pending
						from channels ch where ch.workspace_id = ${workspace.id} and ch.kind <> 'link' order by ch.kind`.execute(server.db)
				).rows
			const kinds = ['facebook', 'instagram', 'messenger', 'telegram', 'whatsapp']
			expect(await perKind()).toEqual(kinds.map((kind) => ({ kind, enabled: false, credentials: null, conversations: 1, pending: 0 })))

			// A completed campaign to the chat link's visitors, with its statistics.
			const campaign = async () =>
				(
					await sql<{ status: string; recipients: number; counted: number; statuses: string[] }>`
						select c.status, c.recipient_count as recipients, count(r.id)::int as counted, array_agg(distinct r.status order by r.status) as statuses
						from campaigns c join campaign_recipients r on r.campaign_id = c.id
						where c.workspace_id = ${workspace.id} and c.name = ${demoCampaign.name} group by c.id`.execute(server.db)
				).rows
			expect(await campaign()).toEqual([
				{ status: 'completed', recipients: demoThreads.length, counted: demoThreads.length, statuses: ['delivered', 'failed', 'read', 'replied'] },
			])

			// A year of resolved conversations on every channel, and the dashboard's roll-ups of it, built already.
			const history = async () =>
				(
					await sql<{ conversations: number; resolved: number; channels: number; days: number; stale: number }>`
						select count(*)::int as conversations, count(*) filter (where status = 'resolved')::int as resolved, count(distinct channel_id)::int as channels,
							(now()::date - min(created_at)::date) as days, (select count(*)::int from report_dirty where workspace_id = ${workspace.id}) as stale
						from conversations where workspace_id = ${workspace.id} and number > ${played}`.execute(server.db)
				).rows[0]
			expect(await history()).toEqual({
				conversations: historyConversations,
				resolved: historyConversations,
				channels: kinds.length + 1,
				days: expect.any(Number),
				stale: 0,
			})
			expect((await history())?.days).toBeGreaterThan(300)
			const rolledUp = await sql<{
				opened: number
			}>`select sum(opened)::int as opened from report_days where workspace_id = ${workspace.id} and label_id = ${none} and team_id = ${every} and channel_id = ${every} and agent_id = ${every}`.execute(
				server.db,
			)
			expect(rolledUp.rows[0]?.opened).toBe(played + historyConversations)

			const again = await run(['api/db/seed.ts'], directory)
			expect(again.code).toBe(0)
			expect(again.output).toContain(`0 contacts created, ${demoContactCount} already there`)
			expect(again.output).toContain('demo inbox: already there')
			expect(await count()).toBe(demoContactCount + demoMessagingChannels.length)
			expect(Number(await conversations())).toBe(demoThreads.length)
			expect(await perKind()).toEqual(kinds.map((kind) => ({ kind, enabled: false, credentials: null, conversations: 1, pending: 0 })))
			expect(await campaign()).toHaveLength(1)
			expect((await history())?.conversations).toBe(historyConversations)
		} finally {
			await server.close()
		}
		expect(fs.existsSync(path.join(directory, 'postgres', 'postmaster.pid'))).toBe(false)
	})

	test('a cluster left running by a process that was killed is adopted by the next one, which stops it', { timeout: 60_000 }, async () => {
		const directory = dataDir()
		// The first process starts the cluster, then dies without a word (kill -9).
		const crashed = await run(
			[
				'--input-type=module',
				'-e',
				"import { openDatabase } from '#api/db/database.ts'; await openDatabase({ dataDir: process.env.DATA_DIR, log: { info() {}, debug() {}, error() {} } }); process.kill(process.pid, 'SIGKILL')",
			],
			directory,
		)
		expect(crashed.code).toBe(null)
		const orphan = postmasterPid(directory)
		expect(isAlive(orphan)).toBe(true)
		expect(fs.readFileSync(path.join(directory, 'postgres.owner'), 'utf8')).toBe(String(crashed.pid))

		lines.length = 0
		const next = await openDatabase({ dataDir: directory, log })
		expect(lines.join('\n')).toContain('adopting the embedded PostgreSQL left running')
		expect(await sql<{ one: number }>`select 1 as one`.execute(next.db).then((result) => result.rows[0]?.one)).toBe(1)
		await next.close()
		expect(isAlive(orphan)).toBe(false)
		expect(fs.existsSync(path.join(directory, 'postgres.owner'))).toBe(false)
	})

	test('a postmaster.pid left by a crash of both processes is cleaned, and the cluster starts again', { timeout: 60_000 }, async () => {
		const directory = dataDir()
		const first = await openDatabase({ dataDir: directory, log })
		await first.db.schema.createTable('kept').addColumn('id', 'integer').execute()
		const pid = postmasterPid(directory)
		await first.db.destroy()
		// PostgreSQL killed outright leaves its postmaster.pid behind.
		process.kill(pid, 'SIGKILL')
		while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50))
		expect(fs.existsSync(path.join(directory, 'postgres', 'postmaster.pid'))).toBe(true)

		const second = await openDatabase({ dataDir: directory, log })
		try {
			expect(
				await second.db
					.selectFrom('kept' as never)
					.selectAll()
					.execute(),
			).toEqual([])
		} finally {
			await second.close()
		}
	})
})
