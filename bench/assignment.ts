/**
 * Auto-assignment at team scale (issue 30): the production server (bench/server.ts: `build/server.js`
 * on loopback, a throw-away DATA_DIR, embedded PostgreSQL), a workspace of `--agents` agents online
 * and connected (the realtime server's signed presence webhook, as ours sends it), one auto-assigning
 * team of all of them, and `--conversations` chat-link customers writing their first message at once
 * (`--concurrency` at a time, each from an address of their own).
 *
 *   npm run bench:assignment -- [--no-build] [--agents 50] [--conversations 1000] [--concurrency 50]
 *
 * Three runs, in this order, on the same server:
 * - `baseline`: the burst on a channel of no team: the time to record every conversation.
 * - `burst`: the same burst on the team's channel, capacities unlimited and equal: the time until
 *   every conversation is recorded and until every one is assigned (from the first message sent),
 *   and the loads at the end (largest and smallest: at most one apart).
 * - `queue`: with the workspace's capacity at 0, the burst waits in the queue; then the owner
 *   raises it (PATCH /v1/workspaces/{id}): the time from that request to the queue's last
 *   assignment, and the loads.
 * Writes bench/results/assignment.json. Exits 1 when a conversation is left unassigned, or is
 * assigned twice, or the spread is above 1.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createDb, type DB } from '#api/db/database.ts'
import { workspacePresenceChannel } from '#common/realtime.ts'
import { callApi, cleanup, findServerEntry, log, numberOption, resultsDir, run, sleep, startServer, table, type ServerContext } from './server.ts'

type Options = { build: boolean; agents: number; conversations: number; concurrency: number }

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			'no-build': { type: 'boolean', default: false },
			agents: { type: 'string', default: '50' },
			conversations: { type: 'string', default: '1000' },
			concurrency: { type: 'string', default: '50' },
		},
	})
	return {
		build: !values['no-build'],
		agents: numberOption('agents', values.agents, 1, 1000),
		conversations: numberOption('conversations', values.conversations, 1, 100_000),
		concurrency: numberOption('concurrency', values.concurrency, 1, 500),
	}
}

type Setup = { workspaceId: string; teamId: string; plainSlug: string; teamSlug: string; agentIds: string[]; ownerToken: string }

async function setUp(server: ServerContext, db: DB, options: Options): Promise<Setup> {
	const { access_token: token } = await callApi<{ access_token: string }>(server.baseUrl, 'POST', '/v1/auth/register', {
		name: 'Bench Owner',
		email: `bench-${crypto.randomBytes(4).toString('hex')}@example.test`,
		password: 'Bench-password-1',
	})
	const workspace = await callApi<{ id: string }>(server.baseUrl, 'POST', '/v1/workspaces', { name: 'Bench assignment' }, token)
	const users = await db
		.insertInto('users')
		.values(
			Array.from({ length: options.agents }, (_, index) => ({
				email: `bench-agent-${index}-${crypto.randomBytes(3).toString('hex')}@example.test`,
				name: `Agent ${index}`,
				passwordHash: 'x',
				emailVerifiedAt: new Date(),
				currentWorkspaceId: workspace.id,
			})),
		)
		.returning('id')
		.execute()
	await db
		.insertInto('members')
		.values(users.map(({ id }) => ({ workspaceId: workspace.id, userId: id, role: 'agent' as const, availability: 'online' as const })))
		.execute()
	const team = await callApi<{ id: string }>(
		server.baseUrl,
		'POST',
		`/v1/workspaces/${workspace.id}/teams`,
		{ name: 'Support', autoAssign: true, userIds: users.map(({ id }) => id) },
		token,
	)
	const plainSlug = `bench-plain-${crypto.randomBytes(4).toString('hex')}`
	const teamSlug = `bench-team-${crypto.randomBytes(4).toString('hex')}`
	await db
		.insertInto('channels')
		.values([
			{ workspaceId: workspace.id, kind: 'link', name: 'No team', slug: plainSlug, settings: {} },
			{ workspaceId: workspace.id, kind: 'link', name: 'Support', slug: teamSlug, settings: {}, teamId: team.id },
		])
		.execute()
	// Every agent connected, as the realtime server tells it: one signed webhook.
	const app = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'realtime-app.json'), 'utf8')) as { key: string; secret: string }
	const body = JSON.stringify({
		time_ms: Date.now(),
		events: users.map(({ id }) => ({ name: 'member_added', channel: workspacePresenceChannel(workspace.id), user_id: id })),
	})
	const answer = await fetch(new URL('/webhooks/realtime', server.baseUrl), {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			'X-Pusher-Key': app.key,
			'X-Pusher-Signature': crypto.createHmac('sha256', app.secret).update(body).digest('hex'),
		},
		body,
	})
	if (!answer.ok) throw new Error(`the presence webhook answered ${answer.status}`)
	return { workspaceId: workspace.id, teamId: team.id, plainSlug, teamSlug, agentIds: users.map(({ id }) => id), ownerToken: token }
}

let customerIndex = 0

/** `count` new customers write their first message through the chat link, `concurrency` at a time. */
async function burst(server: ServerContext, slug: string, count: number, concurrency: number) {
	let next = 0
	const worker = async () => {
		while (next < count) {
			next += 1
			const index = customerIndex++
			const response = await fetch(new URL(`/v1/link/${slug}/messages`, server.baseUrl), {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Visitor-Token': crypto.randomBytes(32).toString('base64url'),
					'X-Forwarded-For': `10.30.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`,
				},
				body: JSON.stringify({ body: `Hello, customer ${index} here` }),
			})
			await response.arrayBuffer()
			if (response.status !== 201) throw new Error(`a customer's message answered ${response.status}`)
		}
	}
	await Promise.all(Array.from({ length: concurrency }, worker))
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 300_000) {
	for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
		if (await check()) return
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`)
	}
}

const conversationsOf = async (db: DB, workspaceId: string) =>
	(await sql<{ n: number }>`select count(*)::int as n from conversations where workspace_id = ${workspaceId}`.execute(db)).rows[0]!.n
const assignedOf = async (db: DB, workspaceId: string) =>
	(await sql<{ n: number }>`select count(*)::int as n from conversations where workspace_id = ${workspaceId} and assignee_id is not null`.execute(db)).rows[0]!
		.n

async function loads(db: DB, setup: Setup) {
	const rows = await sql<{ open: number }>`select count(c.id)::int as open from team_members m
		left join conversations c on c.workspace_id = m.workspace_id and c.assignee_id = m.user_id and c.status = 'open'
		where m.team_id = ${setup.teamId} group by m.user_id`.execute(db)
	const open = rows.rows.map((row) => row.open)
	return { largest: Math.max(...open), smallest: Math.min(...open) }
}

async function assignedTwice(db: DB, workspaceId: string) {
	const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select conversation_id from messages where workspace_id = ${workspaceId}
		and kind = 'activity' and activity->>'key' = 'activity.autoAssigned' group by conversation_id having count(*) > 1) twice`.execute(db)
	return rows[0]!.n
}

async function main() {
	const options = parseOptions()
	if (options.build) {
		log('building for production (npm run build; skip with --no-build)')
		await run('npm', ['run', 'build'])
	}
	let db: DB | undefined
	try {
		// Its agents connect by webhooks alone: the realtime server, which never saw them, would disconnect them.
		const server = await startServer(findServerEntry(), { logName: 'assignment-server.log', env: { PRESENCE_RECONCILE: 'false' } })
		db = createDb(server.databaseUrl, 2)
		const setup = await setUp(server, db, options)
		const { workspaceId } = setup
		const n = options.conversations
		log(`${options.agents} agents online and connected, one auto-assigning team; bursts of ${n} customers, ${options.concurrency} at a time`)

		log('baseline: the burst on a channel of no team')
		let started = performance.now()
		await burst(server, setup.plainSlug, n, options.concurrency)
		await waitFor('the baseline recorded', async () => (await conversationsOf(db!, workspaceId)) >= n)
		const baselineSeconds = (performance.now() - started) / 1000

		log("burst: the same on the team's channel, capacities unlimited")
		started = performance.now()
		let recordedSeconds = 0
		const sending = burst(server, setup.teamSlug, n, options.concurrency).then(async () => {
			await waitFor('the burst recorded', async () => (await conversationsOf(db!, workspaceId)) >= 2 * n)
			recordedSeconds = (performance.now() - started) / 1000
		})
		await waitFor('the burst assigned', async () => (await assignedOf(db!, workspaceId)) >= n)
		const assignedSeconds = (performance.now() - started) / 1000
		await sending
		const burstLoads = await loads(db, setup)

		log('queue: the burst waits (capacity 0), then room appears')
		const capacity = (defaultCapacity: number | null) =>
			callApi(server.baseUrl, 'PATCH', `/v1/workspaces/${workspaceId}`, { defaultCapacity }, setup.ownerToken)
		await capacity(0)
		await db.updateTable('conversations').set({ status: 'resolved' }).where('workspaceId', '=', workspaceId).execute()
		await burst(server, setup.teamSlug, n, options.concurrency)
		await waitFor('the queue filled', async () => {
			const { rows } = await sql<{
				n: number
			}>`select count(*)::int as n from conversations where workspace_id = ${workspaceId} and queued_at is not null`.execute(db!)
			return rows[0]!.n >= n
		})
		started = performance.now()
		await capacity(null)
		await waitFor('the queue drained', async () => (await assignedOf(db!, workspaceId)) >= 2 * n)
		const drainSeconds = (performance.now() - started) / 1000
		const queueLoads = await loads(db, setup)
		const twice = await assignedTwice(db, workspaceId)

		const rows = [
			['run', 'seconds', 'conversations/s', 'largest load', 'smallest load'],
			['baseline: recorded, no team', baselineSeconds.toFixed(2), (n / baselineSeconds).toFixed(0), '', ''],
			['burst: recorded', recordedSeconds.toFixed(2), (n / recordedSeconds).toFixed(0), '', ''],
			['burst: every one assigned', assignedSeconds.toFixed(2), (n / assignedSeconds).toFixed(0), String(burstLoads.largest), String(burstLoads.smallest)],
			['queue: drained once room appears', drainSeconds.toFixed(2), (n / drainSeconds).toFixed(0), String(queueLoads.largest), String(queueLoads.smallest)],
		]
		process.stdout.write(`${table(rows)}\nassigned twice: ${twice}\n`)
		fs.mkdirSync(resultsDir, { recursive: true })
		fs.writeFileSync(
			path.join(resultsDir, 'assignment.json'),
			`${JSON.stringify({ options, baselineSeconds, recordedSeconds, assignedSeconds, burstLoads, drainSeconds, queueLoads, assignedTwice: twice }, null, 2)}\n`,
		)
		if (twice > 0 || burstLoads.largest - burstLoads.smallest > 1 || queueLoads.largest - queueLoads.smallest > 1) process.exitCode = 1
	} finally {
		await db?.destroy()
		await cleanup()
	}
}

main().catch((error: unknown) => {
	log(error instanceof Error ? (error.stack ?? error.message) : String(error))
	process.exitCode = 1
})
