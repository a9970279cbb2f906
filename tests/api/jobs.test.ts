import crypto from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import { describe, expect, test } from 'vitest'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { prune } from '#api/jobs/prune.ts'
import { addJob, jobBatcher, livenessLockClass, removeJob, startJobRunner, unlockJobsOfStoppedRunners, unlockOwnIdleJobs } from '#api/jobs/queue.ts'
import { createUser, createWorkspace, defaultProviderConfig, testDb } from './harness.ts'

const day = 24 * 60 * 60 * 1000
const ago = (days: number) => new Date(Date.now() - days * day)
const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

async function sessionsOf(userId: string) {
	return (await testDb().selectFrom('sessions').select('id').where('userId', '=', userId).execute()).length
}

describe('pruning', () => {
	test('removes sessions that can never be used again and mailed links long spent, keeps the rest', async () => {
		const db = testDb()
		const { user } = await createUser()
		await db
			.insertInto('sessions')
			.values([
				{ userId: user.id, tokenHash: `expired-${user.id}`, expiresAt: ago(1) },
				{ userId: user.id, tokenHash: `idle-${user.id}`, expiresAt: ago(-10), lastUsedAt: ago(15) },
			])
			.execute()
		expect(await sessionsOf(user.id)).toBe(3)
		const purpose = 'reset_password' as const
		await db
			.insertInto('accountTokens')
			.values([
				{ userId: user.id, purpose, tokenHash: `old-${user.id}`, expiresAt: ago(8) },
				{ userId: user.id, purpose, tokenHash: `recent-${user.id}`, expiresAt: ago(1) },
				{ userId: user.id, purpose, tokenHash: `used-${user.id}`, expiresAt: ago(-1), usedAt: ago(8) },
			])
			.execute()
		const workspace = await createWorkspace()
		await db
			.insertInto('invitations')
			.values([
				{ workspaceId: workspace.id, code: `dead-${workspace.id}`, method: 'link', role: 'agent', expiresAt: ago(31) },
				{ workspaceId: workspace.id, code: `recent-${workspace.id}`, method: 'link', role: 'agent', expiresAt: ago(2) },
			])
			.execute()

		const removed = await prune(db)
		expect(removed.sessions).toBeGreaterThanOrEqual(2)
		expect(await sessionsOf(user.id)).toBe(1)
		const tokens = await db.selectFrom('accountTokens').select('tokenHash').where('userId', '=', user.id).execute()
		expect(tokens.map((token) => token.tokenHash)).toEqual([`recent-${user.id}`])
		const invitations = await db.selectFrom('invitations').select('code').where('workspaceId', '=', workspace.id).execute()
		expect(invitations.map((invitation) => invitation.code)).toEqual([`recent-${workspace.id}`])
	})
})

describe('the job queue', () => {
	test('a job due later is not lost when its process stops first: the next process runs it', async () => {
		const db = testDb()
		const { user } = await createUser()
		await db
			.insertInto('sessions')
			.values({ userId: user.id, tokenHash: `due-${user.id}`, expiresAt: ago(1) })
			.execute()
		await db.transaction().execute((trx) => addJob(trx, 'prune', {}, { runAt: new Date(Date.now() + 1500), key: `test-prune-${user.id}` }))

		const databaseUrl = inject('databaseUrl')
		const first = await startJobRunner({ db, databaseUrl, handlers: jobHandlers, log: quiet, config: defaultProviderConfig, pollInterval: 200 })
		await first.stop()
		expect(await sessionsOf(user.id)).toBe(2)

		const second = await startJobRunner({ db, databaseUrl, handlers: jobHandlers, log: quiet, config: defaultProviderConfig, pollInterval: 200 })
		try {
			for (let waited = 0; waited < 15_000 && (await sessionsOf(user.id)) > 1; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
			expect(await sessionsOf(user.id)).toBe(1)
			// The job's row goes once its end is written, a moment after its work.
			const left = async () =>
				(await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${`test-prune-${user.id}`}`.execute(db)).rows[0]?.n
			await expect.poll(left, { timeout: 5000 }).toBe(0)
		} finally {
			await second.stop()
		}
	})

	test("the jobs of a runner whose process died (its liveness lock gone) are unlocked; a live runner's stay locked", async () => {
		const [live, dead] = [`pool-live-${crypto.randomUUID()}`, `pool-dead-${crypto.randomUUID()}`]
		const keys = { [live]: `liveness-${live}`, [dead]: `liveness-${dead}` }
		// Due in a day: no runner takes them; each as if taken a minute ago by its pool.
		for (const [pool, key] of Object.entries(keys)) {
			await addJob(testDb(), 'wake-snoozed', { conversationId: crypto.randomUUID() }, { key, runAt: new Date(Date.now() + day) })
			await sql`update graphile_worker._private_jobs set locked_by = ${pool}, locked_at = now() - interval '1 minute' where key = ${key}`.execute(testDb())
		}
		const holder = new pg.Client({ connectionString: inject('databaseUrl') })
		await holder.connect()
		const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 })
		try {
			await holder.query('select pg_advisory_lock($1, hashtext($2))', [livenessLockClass, live])
			const unlocked = await unlockJobsOfStoppedRunners(pool)
			expect(unlocked).toContain(dead)
			expect(unlocked).not.toContain(live)
			const lockedBy = async (key: string) =>
				(await sql<{ lockedBy: string | null }>`select locked_by as "lockedBy" from graphile_worker._private_jobs where key = ${key}`.execute(testDb())).rows[0]
					?.lockedBy
			expect(await lockedBy(keys[live]!)).toBe(live)
			expect(await lockedBy(keys[dead]!)).toBe(null)
			// The live runner's process dies: its lock goes with its connection, and so do its jobs' locks.
			await holder.end()
			expect(await unlockJobsOfStoppedRunners(pool)).toContain(live)
			expect(await lockedBy(keys[live]!)).toBe(null)
		} finally {
			await holder.end().catch(() => {})
			await pool.end()
			await sql`update graphile_worker._private_jobs set locked_by = null, locked_at = null where key = any(${Object.values(keys)})`.execute(testDb())
			for (const key of Object.values(keys)) await removeJob(testDb(), key)
		}
	})

	test("a live runner's jobs whose end was lost (the database away as they ended) are unlocked; the ones it runs, or just took, are not", async () => {
		const own = `pool-own-${crypto.randomUUID()}`
		const names = ['ended', 'running', 'just-taken'] as const
		const keys = Object.fromEntries(names.map((name) => [name, `own-${name}-${own}`])) as Record<(typeof names)[number], string>
		const ids: Record<string, string> = {}
		for (const name of names) {
			await addJob(testDb(), 'wake-snoozed', { conversationId: crypto.randomUUID() }, { key: keys[name], runAt: new Date(Date.now() + day) })
			const lockedAt = name === 'just-taken' ? sql`now()` : sql`now() - interval '1 minute'`
			const row = await sql<{
				id: string
			}>`update graphile_worker._private_jobs set locked_by = ${own}, locked_at = ${lockedAt} where key = ${keys[name]} returning id::text`.execute(testDb())
			ids[name] = row.rows[0]!.id
		}
		const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 })
		const lockedBy = async (key: string) =>
			(await sql<{ lockedBy: string | null }>`select locked_by as "lockedBy" from graphile_worker._private_jobs where key = ${key}`.execute(testDb())).rows[0]
				?.lockedBy
		try {
			expect(await unlockOwnIdleJobs(pool, [own], [ids.running!])).toBe(1)
			expect(await lockedBy(keys.ended)).toBe(null)
			expect(await lockedBy(keys.running)).toBe(own)
			expect(await lockedBy(keys['just-taken'])).toBe(own)
			// Another runner's are not this one's to unlock.
			expect(await unlockOwnIdleJobs(pool, [`pool-other-${crypto.randomUUID()}`], [])).toBe(0)
			expect(await lockedBy(keys.running)).toBe(own)
		} finally {
			await pool.end()
			await sql`update graphile_worker._private_jobs set locked_by = null, locked_at = null where key = any(${Object.values(keys)})`.execute(testDb())
			for (const key of Object.values(keys)) await removeJob(testDb(), key)
		}
	})

	test('a job added in a transaction that rolls back is never added', async () => {
		const db = testDb()
		const key = `rolled-back-${Date.now()}`
		await db
			.transaction()
			.execute(async (trx) => {
				await addJob(trx, 'prune', {}, { key, runAt: new Date(Date.now() + 60_000) })
				throw new Error('changed my mind')
			})
			.catch(() => {})
		const found = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${key}`.execute(db)
		expect(found.rows[0]?.n).toBe(0)
	})

	test('jobs added by many callers at once are batched: each caller’s jobs are there when it resumes, in the order they were added', async () => {
		const db = testDb()
		const add = jobBatcher(db)
		// No runner takes them: this file's runners are stopped, and the channel does not exist.
		const channelId = '00000000-0000-4000-8000-00000000b47c'
		const queueName = `webhooks:${channelId}:batch-${Date.now()}`
		const statements: Array<Promise<void>> = []
		for (let n = 0; n < 40; n++)
			statements.push(
				add([
					{ name: 'process-webhook', payload: { channelId, body: { n }, part: 0 }, queueName },
					...(n % 10 === 0 ? [{ name: 'process-webhook' as const, payload: { channelId, body: { n, status: true }, part: null } }] : []),
				]),
			)
		await Promise.all(statements)
		const queued = await sql<{
			n: number
		}>`select (j.payload->'body'->>'n')::int as n from graphile_worker._private_jobs j join graphile_worker._private_job_queues q on q.id = j.job_queue_id where q.queue_name = ${queueName} order by j.id`.execute(
			db,
		)
		expect(queued.rows.map((row) => row.n)).toEqual(Array.from({ length: 40 }, (_, n) => n))
		const statuses = await sql<{
			n: number
		}>`select count(*)::int as n from graphile_worker._private_jobs where job_queue_id is null and payload->'body'->>'status' = 'true' and payload->>'channelId' = ${channelId}`.execute(
			db,
		)
		expect(statuses.rows[0]?.n).toBe(4)
		await sql`delete from graphile_worker._private_jobs where payload->>'channelId' = ${channelId}`.execute(db)
	})

	test('two processes’ batches that open the same new queues in opposite orders do not deadlock', async () => {
		// Two API processes take a burst of customers' webhooks in different orders: each batch opens the customers'
		// queues, and PostgreSQL refused one of two batches that waited on each other's new queue rows (a 500 to the provider).
		const db = testDb()
		const [first, second] = [jobBatcher(db), jobBatcher(db)]
		const channelId = '00000000-0000-4000-8000-00000000dead'
		for (let round = 0; round < 5; round++) {
			const queues = Array.from({ length: 40 }, (_, n) => `webhooks:${channelId}:${round}-${n}`)
			const jobs = (names: string[]) =>
				names.map((queueName, n) => ({ name: 'process-webhook' as const, payload: { channelId, body: { n }, part: 0 }, queueName }))
			await Promise.all([first(jobs(queues)), second(jobs([...queues].reverse()))])
		}
		const queued = await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs where payload->>'channelId' = ${channelId}`.execute(db)
		expect(queued.rows[0]?.n).toBe(5 * 80)
		await sql`delete from graphile_worker._private_jobs where payload->>'channelId' = ${channelId}`.execute(db)
	})
})
