/**
 * Notifications' cost (issue 32), on the real /v1 router on loopback with an embedded PostgreSQL:
 *
 * - A customer's message (POST /v1/link/{slug}/messages) until stored, p50 and p99: in conversations
 *   nobody is assigned (no notification: the baseline), assigned but muted (notify reads, writes
 *   nothing), and assigned to a member (a `message` notification written in the same transaction,
 *   gathered with the unread one before).
 * - The bell (GET …/notifications?limit=10: the latest ten and the unread count) for a member with
 *   none (the baseline) and for one with `--rows` notifications, half of them unread.
 *
 *   npm run bench:notifications -- [--messages 300] [--concurrency 4] [--rows 100000] [--reads 300]
 *
 * Writes bench/results/notifications.json.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createSession } from '#api/auth/sessions.ts'
import { type DB } from '#api/db/database.ts'
import { log, numberOption, percentile, resultsDir, table } from './server.ts'
import { postLinkMessage, seedLinkWorkspace, withInProcessApi } from './in-process.ts'

const { values } = parseArgs({
	options: {
		messages: { type: 'string', default: '300' },
		concurrency: { type: 'string', default: '4' },
		rows: { type: 'string', default: '100000' },
		reads: { type: 'string', default: '300' },
	},
})
const messages = numberOption('messages', values.messages, 10, 10_000)
const concurrency = numberOption('concurrency', values.concurrency, 1, 64)
const rows = numberOption('rows', values.rows, 0, 10_000_000)
const reads = numberOption('reads', values.reads, 10, 100_000)

const at = (list: number[], p: number) => percentile(Float64Array.from(list).sort(), p)

async function seedWorkspace(db: DB, name: string) {
	const place = await seedLinkWorkspace(db, name)
	const user = await db
		.insertInto('users')
		.values({ email: `${crypto.randomBytes(6).toString('hex')}@bench.test`, name: 'Agent', passwordHash: 'x' })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db.insertInto('members').values({ workspaceId: place.workspaceId, userId: user.id, role: 'agent' }).execute()
	return { ...place, userId: user.id }
}

/** Each customer writes once (their conversation), is assigned or not, then the measured messages follow. */
async function measureMessages(db: DB, url: string, place: Awaited<ReturnType<typeof seedWorkspace>>, assigned: 'no' | 'muted' | 'yes', net: number) {
	const tokens = Array.from({ length: concurrency * 4 }, () => crypto.randomBytes(24).toString('base64url'))
	const send = (visitorToken: string, index: number) => postLinkMessage(url, place.slug, { net, index, visitorToken })
	await Promise.all(tokens.map((token, index) => send(token, index)))
	if (assigned !== 'no')
		await db
			.updateTable('conversations')
			.set({ assigneeId: place.userId, mutedAt: assigned === 'muted' ? new Date() : null })
			.where('workspaceId', '=', place.workspaceId)
			.execute()
	const stored: number[] = []
	let next = 0
	async function customer() {
		while (next < messages) {
			const index = next++
			const started = performance.now()
			await send(tokens[index % tokens.length]!, index)
			stored.push(performance.now() - started)
		}
	}
	await Promise.all(Array.from({ length: concurrency }, customer))
	return { p50: at(stored, 50), p99: at(stored, 99) }
}

async function measureBell(url: string, workspaceId: string, token: string) {
	const times: number[] = []
	for (let index = 0; index < reads; index++) {
		const started = performance.now()
		const response = await fetch(`${url}/v1/workspaces/${workspaceId}/notifications?limit=10`, { headers: { Authorization: `Bearer ${token}` } })
		if (!response.ok) throw new Error(`GET answered ${response.status}`)
		await response.arrayBuffer()
		times.push(performance.now() - started)
	}
	return { p50: at(times, 50), p99: at(times, 99) }
}

async function main() {
	await withInProcessApi('notifications', async ({ db, url }) => {
		const unassigned = await seedWorkspace(db, 'Nobody assigned')
		const muted = await seedWorkspace(db, 'Assigned, muted')
		const assigned = await seedWorkspace(db, 'Assigned')
		// Warm each, then measure it.
		await measureMessages(db, url, unassigned, 'no', 1)
		const withoutNotification = await measureMessages(db, url, unassigned, 'no', 2)
		await measureMessages(db, url, muted, 'muted', 3)
		const mutedNotification = await measureMessages(db, url, muted, 'muted', 4)
		await measureMessages(db, url, assigned, 'yes', 5)
		const withNotification = await measureMessages(db, url, assigned, 'yes', 6)
		log('messages: done')

		const quietMember = await seedWorkspace(db, 'No notifications')
		const busyMember = await seedWorkspace(db, 'Many notifications')
		await sql`
			insert into notifications (workspace_id, user_id, kind, values, read_at, created_at)
			select ${busyMember.workspaceId}::uuid, ${busyMember.userId}::uuid, 'assigned', jsonb_build_object('number', n),
				case when n % 2 = 0 then now() end, now() - make_interval(secs => ${rows} - n)
			from generate_series(1, ${rows}) n
		`.execute(db)
		await sql`analyze notifications`.execute(db)
		const [quietToken, busyToken] = await Promise.all([createSession(db, quietMember.userId), createSession(db, busyMember.userId)])
		await measureBell(url, quietMember.workspaceId, quietToken)
		const bellEmpty = await measureBell(url, quietMember.workspaceId, quietToken)
		await measureBell(url, busyMember.workspaceId, busyToken)
		const bellBusy = await measureBell(url, busyMember.workspaceId, busyToken)
		log('bell: done')

		const ms = (value: number) => `${value.toFixed(1)} ms`
		const results = [
			{ what: 'customer message, nobody assigned (baseline)', ...withoutNotification },
			{ what: 'customer message, assigned, muted (read, nothing written)', ...mutedNotification },
			{ what: 'customer message, assigned (+ notification)', ...withNotification },
			{ what: 'bell, no notifications (baseline)', ...bellEmpty },
			{ what: `bell, ${rows} notifications (${Math.floor(rows / 2)} unread)`, ...bellBusy },
		]
		process.stdout.write(`${table([['scenario', 'p50', 'p99'], ...results.map((result) => [result.what, ms(result.p50), ms(result.p99)])])}\n`)
		log(`${messages} messages a run, ${concurrency} customers at once; ${reads} bell reads one at a time`)
		fs.mkdirSync(resultsDir, { recursive: true })
		fs.writeFileSync(path.join(resultsDir, 'notifications.json'), `${JSON.stringify({ messages, concurrency, rows, reads, results }, null, '\t')}\n`)
	})
}

await main()
