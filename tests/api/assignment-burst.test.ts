import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { hashPassword } from '#api/auth/password.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { workspacePresenceChannel } from '#common/realtime.ts'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { killChildServers, ownDatabase, startChildServer, until, type ChildServer } from './child-server.ts'

/**
 * Exactly right under concurrency (issue 30): two app processes (`server.ts`, as `npm run dev`
 * runs it) on one database, each with its job runner. A burst of 100 customers writes at once
 * through the Telegram webhook, half to each process; ten agents of an auto-assigning team, each
 * with room for 5, are available. Both processes record the messages and drain the queue at the
 * same time: nobody may end over capacity, no conversation may be assigned twice, and exactly 50
 * must wait. Then room appears (the capacity is raised) and the queue drains to the last one.
 *
 * On a database of its own: the other files' leftover jobs would otherwise run in the children.
 */

const agents = 10
const customers = 100
const capacity = 5

let fake: TelegramFake
let db: DB
let database: { url: string; drop: () => Promise<void> }
let dataDir: string
const sessionSecret = crypto.randomBytes(32).toString('hex')
const servers: ChildServer[] = []

async function call<T>(server: ChildServer, method: string, route: string, body?: unknown, token?: string): Promise<T> {
	const response = await fetch(`${server.url}${route}`, {
		method,
		headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	})
	const answer = (await response.json().catch(() => null)) as T
	if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer)}`)
	return answer
}

/** The realtime server's presence webhook, signed with the app's secret (DATA_DIR/realtime-app.json, which both processes share). */
async function connects(server: ChildServer, workspaceId: string, userId: string) {
	const app = JSON.parse(fs.readFileSync(path.join(dataDir, 'realtime-app.json'), 'utf8')) as { key: string; secret: string }
	const body = JSON.stringify({ time_ms: Date.now(), events: [{ name: 'member_added', channel: workspacePresenceChannel(workspaceId), user_id: userId }] })
	const response = await fetch(`${server.url}/webhooks/realtime`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			'X-Pusher-Key': app.key,
			'X-Pusher-Signature': crypto.createHmac('sha256', app.secret).update(body).digest('hex'),
		},
		body,
	})
	expect(response.status).toBe(200)
}

beforeAll(async () => {
	fake = await startTelegramFake()
	database = await ownDatabase('burst')
	db = createDb(database.url, 2)
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-burst-'))
	// One after the other: the first migrates the database and writes the shared secrets into DATA_DIR.
	for (let index = 0; index < 2; index++)
		servers.push(
			await startChildServer({
				DATA_DIR: dataDir,
				DATABASE_URL: database.url,
				TELEGRAM_API_URL: fake.url,
				SESSION_SECRET: sessionSecret,
				// Its agents connect by webhooks alone: the realtime server, which never saw them, would disconnect them.
				PRESENCE_RECONCILE: 'false',
			}),
		)
}, 120_000)

afterAll(async () => {
	killChildServers()
	await db?.destroy()
	await database.drop()
	await fake?.close()
	fs.rmSync(dataDir, { recursive: true, force: true })
})

test(
	'two processes assign a burst of 100 new conversations: nobody over capacity, none twice, the rest waits and drains later',
	{ timeout: 240_000 },
	async () => {
		const [first, second] = servers as [ChildServer, ChildServer]
		const { access_token: token } = await call<{ access_token: string }>(first, 'POST', '/v1/auth/register', {
			name: 'Owner',
			email: `owner-${crypto.randomBytes(4).toString('hex')}@example.test`,
			password: 'Burst-password-1',
		})
		const workspace = await call<{ id: string }>(first, 'POST', '/v1/workspaces', { name: 'Burst' }, token)
		const bot = fake.addBot()
		const channel = await call<{ id: string }>(
			first,
			'POST',
			`/v1/workspaces/${workspace.id}/channels`,
			{ kind: 'telegram', name: 'Support bot', credentials: { botToken: bot.token } },
			token,
		)

		// Ten agents, online by their choice, each connected to one of the two processes.
		const passwordHash = await hashPassword('Agent-password-1')
		const users = await db
			.insertInto('users')
			.values(
				Array.from({ length: agents }, (_, index) => ({
					email: `agent-${index}-${crypto.randomBytes(3).toString('hex')}@example.test`,
					name: `Agent ${index}`,
					passwordHash,
				})),
			)
			.returning('id')
			.execute()
		await db
			.insertInto('members')
			.values(users.map((user) => ({ workspaceId: workspace.id, userId: user.id, role: 'agent' as const, availability: 'online' as const })))
			.execute()
		await Promise.all(users.map((user, index) => connects(servers[index % 2]!, workspace.id, user.id)))
		await call(first, 'PATCH', `/v1/workspaces/${workspace.id}`, { defaultCapacity: capacity }, token)
		const team = await call<{ id: string }>(
			second,
			'POST',
			`/v1/workspaces/${workspace.id}/teams`,
			{ name: 'Support', autoAssign: true, userIds: users.map((user) => user.id) },
			token,
		)
		await call(first, 'PATCH', `/v1/workspaces/${workspace.id}/channels/${channel.id}`, { teamId: team.id }, token)

		// The burst: every customer at once, half through each process.
		const answers = await Promise.all(
			Array.from({ length: customers }, (_, index) =>
				fake.postUpdate(bot.token, textUpdate({ id: 930_000_000 + index, firstName: `Customer ${index}` }, 'Hello, I need help'), {
					origin: servers[index % 2]!.url,
				}),
			),
		)
		// A refusal says why: the servers' last words (they once answered some of a loaded CI's burst with 500s).
		const said = () => servers.map((server) => server.output.slice(-30).join('\n')).join('\n----\n')
		expect(
			answers.map((answer) => answer.status),
			said(),
		).toEqual(Array.from({ length: customers }, () => 200))

		const settled = async () => {
			const { rows } = await sql<{ conversations: number; jobs: number }>`select
			(select count(*)::int from conversations where workspace_id = ${workspace.id}) as conversations,
			(select count(*)::int from graphile_worker.jobs where task_identifier in ('process-webhook', 'drain-queues')) as jobs`.execute(db)
			return rows[0]!.conversations === customers && rows[0]!.jobs === 0
		}
		await until('every message recorded and every drain done', settled, 120_000)

		const loads = async () =>
			(
				await db
					.selectFrom('conversations')
					.select(['assigneeId', (eb) => eb.fn.countAll<number>().as('open')])
					.where('workspaceId', '=', workspace.id)
					.where('status', '=', 'open')
					.where('assigneeId', 'is not', null)
					.groupBy('assigneeId')
					.execute()
			).map((row) => Number(row.open))
		expect(await loads()).toEqual(Array.from({ length: agents }, () => capacity))
		const lines = await sql<{ conversation_id: string; n: number }>`select conversation_id, count(*)::int as n from messages
		where workspace_id = ${workspace.id} and kind = 'activity' and activity->>'key' = 'activity.autoAssigned' group by conversation_id`.execute(db)
		expect(lines.rows).toHaveLength(agents * capacity)
		expect(lines.rows.every((row) => row.n === 1)).toBe(true)
		const waiting = await db.selectFrom('conversations').select('id').where('workspaceId', '=', workspace.id).where('queuedAt', 'is not', null).execute()
		expect(waiting).toHaveLength(customers - agents * capacity)

		// Room appears: the owner raises the workspace's capacity, through the other process.
		await call(second, 'PATCH', `/v1/workspaces/${workspace.id}`, { defaultCapacity: 2 * capacity }, token)
		await until('every conversation assigned', async () => (await loads()).reduce((sum, open) => sum + open, 0) === customers, 60_000)
		expect(await loads()).toEqual(Array.from({ length: agents }, () => 2 * capacity))
		const waits = await db.selectFrom('queueWaits').select(['conversationId']).where('workspaceId', '=', workspace.id).execute()
		expect(new Set(waits.map((wait) => wait.conversationId)).size).toBe(customers)
		expect(waits).toHaveLength(customers)
	},
)
