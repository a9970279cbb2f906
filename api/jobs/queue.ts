import { EventEmitter } from 'node:events'
import { Logger as GraphileLogger, run, type Runner, type Task, type TaskList, type WorkerEvents } from 'graphile-worker'
import { sql } from 'kysely'
import pg from 'pg'
import { type AutomationEvent } from '#common/automation.ts'
import { type ProviderConfig } from '#api/channels/providers/provider.ts'
import { type DB } from '#api/db/database.ts'
import { type Log } from '#api/db/embedded-postgres.ts'
import { createMailer, type Mailer } from '#api/mail/mailer.ts'
import { silentRealtime, type Realtime } from '#api/realtime/publisher.ts'
import { type Config } from '#config/config.ts'
import { queuePool } from './pool.ts'

/**
 * The durable job queue: graphile-worker on the same PostgreSQL (its own `graphile_worker`
 * schema). A job is a row, added in the same transaction as the change that calls for it, so it
 * is never lost nor added for a change that was rolled back; it runs once across every process
 * (workers take jobs with SKIP LOCKED), is retried with backoff when it throws, and survives
 * restarts. See docs/decisions/008-jobs.md.
 */

/** The task names and what each is given. A task's handler lives beside its domain. */
export type JobPayloads = {
	prune: Record<string, never>
	/** Delivers an outgoing message through its channel's provider (api/conversations/jobs.ts). */
	'send-message': { messageId: string; attempt?: number }
	/** Reopens a snoozed conversation when its snooze ends; keyed per conversation, so a new snooze replaces it. */
	'wake-snoozed': { conversationId: string }
	/** A provider's webhook, verified and kept as it came, and which part of it this job records (api/webhooks/jobs.ts). */
	'process-webhook': { channelId: string; body: unknown; part?: number | null }
	/** Starts a scheduled campaign at its time (api/campaigns/sending.ts); keyed per campaign. */
	'start-campaign': { campaignId: string }
	/** Sends a campaign's next batch at its channel's rate, then adds itself again; keyed and queued per campaign. */
	'send-campaign': { campaignId: string }
	/** Recomputes the report days that changes made stale (api/reports/rollup.ts); every minute, and again 5 s after a run that found work. */
	'refresh-reports': Record<string, never>
	/** Writes and sends a mail (api/mail/jobs.ts): an account's link, an invitation, or a notice; keyed per subject, retried while SMTP refuses. */
	/** Serves a workspace's team queues while anyone has room (api/assignment/drain.ts); keyed per workspace, so many asks make one drain. */
	'drain-queues': { workspaceId: string }
	/** Turns a member offline a while after their last connection closed, unless they came back (api/assignment/presence.ts); keyed per member. */
	'presence-offline': { workspaceId: string; userId: string; leftAt: string }
	/** Every minute: who is connected, as the realtime server lists them, where a webhook was lost (api/assignment/presence.ts). */
	'reconcile-presence': Record<string, never>
	/** Runs a workspace's rules on one event of a conversation (api/automation/run.ts); queued per conversation, once per rule by `eventKey`. */
	'run-automation': { workspaceId: string; conversationId: string; event: AutomationEvent; eventKey: string; depth: number; messageId?: string }
	/** Every minute: conversations waiting in a queue or for a reply longer than their thresholds (api/notifications/waiting.ts). */
	'notify-waiting': Record<string, never>
	/** A notification to its user's browsers (api/notifications/push.ts); a retry names the devices that did not take it yet. */
	'send-push': { notificationId: string; deviceIds?: string[]; attempt?: number }
	'send-mail':
		| { kind: 'verifyEmail' | 'resetPassword'; userId: string }
		| { kind: 'invitation'; invitationId: string }
		/** A member's two-step sign-in turned off by `byUserId`, an owner or admin of `workspaceId`. */
		| { kind: 'twoFactorReset'; userId: string; workspaceId: string; byUserId: string }
		/** An outgoing webhook turned off after failing for a day, to one of its workspace's owners and admins. */
		| { kind: 'webhookDisabled'; userId: string; subscriptionId: string }
	/** Takes a workspace's webhook events from the outbox and makes their deliveries (api/outgoing-webhooks/fan-out.ts); keyed and queued per workspace. */
	'fan-out-webhooks': { workspaceId: string }
	/** Sends one subscription's deliveries of one conversation (contact, campaign) in order (api/outgoing-webhooks/delivery.ts); keyed and queued per both. */
	'deliver-webhooks': { subscriptionId: string; orderingKey: string }
	/** A member's unread notifications of a workspace in one mail (api/notifications/mail.ts); keyed per member, run five minutes after the first. */
	'mail-notifications': { userId: string; workspaceId: string }
}

export type JobName = keyof JobPayloads

/** What a task works with: the database, realtime to tell members (and visitors) what it changed, the providers' addresses and the mail server. */
export type JobHelpers = { db: DB; realtime: Realtime; config: JobConfig; mailer: Mailer }

/** The providers' addresses, the key that opens channel credentials, where attachments go (DATA_DIR or S3_*), the campaigns' opt-out words, mail (SESSION_SECRET signs its unsubscribe links), and push. */
export type JobConfig = ProviderConfig &
	Pick<
		Config,
		| 'ENCRYPTION_KEY'
		| 'SESSION_SECRET'
		| 'UPLOAD_MAX_BYTES'
		| 'dataDir'
		| 'SMTP_URL'
		| 'MAIL_FROM'
		| 'PUBLIC_URL'
		| 'VAPID_PUBLIC_KEY'
		| 'VAPID_PRIVATE_KEY'
		| 'VAPID_SUBJECT'
		| 'WEBHOOK_ALLOW_PRIVATE'
		| 'outboundCa'
	> &
	Partial<
		Pick<
			Config,
			| 'OPT_OUT_WORDS'
			| 'AUDIT_LOG_DAYS'
			| 'PRESENCE_OFFLINE_AFTER'
			| 'PRESENCE_RECONCILE'
			| 'S3_BUCKET'
			| 'S3_REGION'
			| 'S3_ENDPOINT'
			| 'S3_ACCESS_KEY_ID'
			| 'S3_SECRET_ACCESS_KEY'
			| 'S3_FORCE_PATH_STYLE'
		>
	>

export type JobHandlers = { [Name in JobName]: (payload: JobPayloads[Name], helpers: JobHelpers) => Promise<void> }

/** Some of the tasks: a runner given them takes only their jobs (the API tests' mail runner). */
export type SomeJobHandlers = Partial<JobHandlers>

/**
 * Adds a job; given a transaction, inside it. A `key` replaces the pending job of the same key (its
 * payload and `runAt`; with `keyMode: 'preserve_run_at'` it keeps the pending one's time, so many adds
 * make one job at the first one's time); jobs of one `queueName` run one at a time, in order.
 */
export async function addJob<Name extends JobName>(
	db: DB,
	name: Name,
	payload: JobPayloads[Name],
	options: { runAt?: Date; key?: string; keyMode?: 'replace' | 'preserve_run_at'; maxAttempts?: number; queueName?: string } = {},
) {
	await sql`select graphile_worker.add_job(
		${name}::text,
		${JSON.stringify(payload)}::json,
		queue_name => ${options.queueName ?? null}::text,
		run_at => ${options.runAt ?? null}::timestamptz,
		job_key => ${options.key ?? null}::text,
		max_attempts => ${options.maxAttempts ?? null}::int,
		job_key_mode => ${options.keyMode ?? null}::text
	)`.execute(db)
}

/** A job for `jobBatcher`: its task, payload and queue (the options batched jobs may have). */
export type BatchedJob<Name extends JobName = JobName> = { name: Name; payload: JobPayloads[Name]; queueName?: string }

/**
 * Adds jobs from many requests at once (webhooks at a provider's rate): each caller's jobs are in
 * the database once its promise resolves. While one batch is being written the next one gathers,
 * so under load one statement, one commit and one NOTIFY carry many jobs: PostgreSQL lets one
 * notifying transaction commit at a time, and one `add_job` per request made the commit (and its
 * WAL flush) the limit. A caller's jobs go in the same batch, together or not at all, in order.
 */
export function jobBatcher(db: DB): (jobs: BatchedJob[]) => Promise<void> {
	type Waiting = { jobs: BatchedJob[]; settle: (error?: unknown) => void }
	let waiting: Waiting[] = []
	let writing = false
	async function write() {
		writing = true
		while (waiting.length > 0) {
			const batch = waiting
			waiting = []
			const specs = batch.flatMap((entry) => entry.jobs.map((job) => ({ identifier: job.name, payload: job.payload, queue_name: job.queueName ?? null })))
			try {
				// One add_job per job, called in the callers' order within each queue (PostgreSQL evaluates a volatile
				// select list after its ORDER BY): add_jobs joins its specs to the tasks and queues, and a hash join handed
				// the ids out in another order (a burst's webhooks would then have run in the wrong order in their queue).
				// The queues come in name order: another process's batch opening the same new queues in another order
				// would otherwise wait on this one's new queue rows while this one waits on its own (a deadlock).
				await sql`select count(*) from (
					select graphile_worker.add_job(spec->>'identifier', spec->'payload', queue_name => spec->>'queue_name')
					from json_array_elements(${JSON.stringify(specs)}::json) with ordinality as specs(spec, n)
					order by spec->>'queue_name' collate "C" nulls first, n
				) added`.execute(db)
				for (const entry of batch) entry.settle()
			} catch (error) {
				for (const entry of batch) entry.settle(error)
			}
		}
		writing = false
	}
	return (jobs) =>
		new Promise<void>((resolve, reject) => {
			waiting.push({ jobs, settle: (error) => (error === undefined ? resolve() : reject(error)) })
			if (!writing) void write()
		})
}

/** Removes a pending job by its key (a snooze ended early: the conversation was reopened). */
export async function removeJob(db: DB, key: string) {
	await sql`select graphile_worker.remove_job(${key}::text)`.execute(db)
}

export type JobRunner = { stop: () => Promise<void> }

/**
 * How often an idle worker looks for jobs without being told of one. New jobs wake workers at once
 * (LISTEN/NOTIFY), but graphile-worker 0.17 looks for a worker's next job before the finished one
 * has released its named queue: the next job of that queue waits for this poll (at 2 s, its default,
 * a customer's backlog drained at one message a second; measured in docs/decisions/011-channels.md).
 */
const defaultPollInterval = 250

// Periodic work, in graphile-worker's crontab format (UTC): pruning at 03:17 every night; the reports'
// roll-ups and presence's reconciliation every minute (one pending job at most, whatever the number of processes).
const crontab: Array<[JobName, string]> = [
	['prune', '17 3 * * * prune'],
	['refresh-reports', '* * * * * refresh-reports ?jobKey=refresh-reports&jobKeyMode=preserve_run_at'],
	['reconcile-presence', '* * * * * reconcile-presence ?jobKey=reconcile-presence&jobKeyMode=preserve_run_at&max=1&queue=reconcile-presence'],
	['notify-waiting', '* * * * * notify-waiting ?jobKey=notify-waiting&jobKeyMode=preserve_run_at&max=1'],
]

/**
 * A process killed mid-job (kill -9, out of memory, a lost machine) leaves its jobs locked, and
 * graphile-worker 0.17 unlocks them only after 4 hours (a campaign would stop for that long). So
 * each runner holds a session advisory lock (this class, the hash of its worker pool's id) on a
 * connection of its own, which PostgreSQL drops with the process; every runner, when it starts and
 * every `sweepIntervalMs`, unlocks the jobs (and named queues) of pools whose lock is gone. Only
 * locks older than `sweepAfter` are looked at: a new pool takes its lock a moment after it starts.
 */
export const livenessLockClass = 0x6a6f6273
const sweepIntervalMs = 15_000
const sweepAfter = '10 seconds'

/** Unlocks the jobs and queues of runners that are gone; returns their pools' ids. */
export async function unlockJobsOfStoppedRunners(pool: pg.Pool): Promise<string[]> {
	const { rows } = await pool.query<{ pools: string[] }>(
		`with stopped as (
			select distinct locked_by from (
				select locked_by, locked_at from graphile_worker._private_jobs where locked_by is not null
				union all
				select locked_by, locked_at from graphile_worker._private_job_queues where locked_by is not null
			) locked
			where locked_at < now() - $2::interval
			and not exists (
				select 1 from pg_locks
				where locktype = 'advisory' and classid = $1::int::oid and objid = hashtext(locked_by)::oid and objsubid = 2 and granted
			)
		)
		select array(select locked_by from stopped) as pools, graphile_worker.force_unlock_workers(array(select locked_by from stopped))`,
		[livenessLockClass, sweepAfter],
	)
	return rows[0]?.pools ?? []
}

/**
 * Unlocks the jobs this live runner holds but no longer runs (and their named queues): a job whose
 * end (done, or failed) could not be written because the database was away at that moment stays
 * locked by its runner, and graphile-worker 0.17 would leave it so for 4 hours. `running` are the
 * ids of the jobs its workers are running or finished a moment ago (their end may still be on its
 * way); a job locked in the last seconds may be starting. Every task is safe to run twice.
 */
export async function unlockOwnIdleJobs(pool: pg.Pool, pools: readonly string[], running: readonly string[]): Promise<number> {
	if (pools.length === 0) return 0
	const { rows } = await pool.query<{ unlocked: number }>(
		`with idle as (
			select id, job_queue_id from graphile_worker._private_jobs
			where locked_by = any($1::text[]) and locked_at < now() - $3::interval and not (id = any($2::bigint[]))
			for update skip locked
		), jobs as (
			update graphile_worker._private_jobs as jobs set locked_at = null, locked_by = null from idle where jobs.id = idle.id returning jobs.id
		), queues as (
			-- Run whether or not it is read, as every data-modifying WITH is.
			update graphile_worker._private_job_queues as queues set locked_at = null, locked_by = null
			where queues.locked_by = any($1::text[]) and queues.id in (select job_queue_id from idle)
		)
		select count(*)::int as unlocked from jobs`,
		[pools, running, startingGrace],
	)
	return rows[0]?.unlocked ?? 0
}

// A job locked this recently may be on its way to its worker (locked, not yet started).
const startingGrace = '5 seconds'
// How long a finished job counts as running: its end is being written.
const endingGraceMs = 10_000

/**
 * Starts this process's workers. Several processes may each run one: a job still runs once.
 * `concurrency` jobs at a time; new jobs are picked up at once through LISTEN/NOTIFY.
 */
export async function startJobRunner(options: {
	db: DB
	databaseUrl: string
	handlers: SomeJobHandlers
	log: Log
	config: JobConfig
	/** Where tasks publish; without it (tests of the queue alone) their events go nowhere. */
	realtime?: Realtime
	concurrency?: number
	pollInterval?: number
}): Promise<JobRunner> {
	// The runner's bookkeeping (taking a job, marking it done) does not wait for the disk: a "done" lost
	// in a crash runs the job again, and every task is safe to run twice. Adding a job waits (the API's pool).
	const pool = queuePool(options.databaseUrl, (options.concurrency ?? 2) + 2, (error) => options.log.error(`job queue connection lost: ${error.message}`), {
		waitForDisk: false,
	})
	const helpers: JobHelpers = {
		db: options.db,
		realtime: options.realtime ?? silentRealtime,
		config: options.config,
		mailer: createMailer(options.config, options.log),
	}
	const taskList: TaskList = {}
	for (const [name, handler] of Object.entries(options.handlers) as Array<[JobName, JobHandlers[JobName]]>) {
		const task: Task = async (payload) => handler((payload ?? {}) as never, helpers)
		taskList[name] = task
	}
	// This runner's pools, and the jobs their workers run: id → when it ended (Infinity while it runs).
	const ownPools = new Set<string>()
	const running = new Map<string, number>()
	const events: WorkerEvents = new EventEmitter()
	events.on('job:start', ({ job }) => running.set(job.id, Number.POSITIVE_INFINITY))
	events.on('job:complete', ({ job }) => running.set(job.id, Date.now()))
	const sweepOwn = async () => {
		for (const [id, ended] of running) if (ended + endingGraceMs < Date.now()) running.delete(id)
		const unlocked = await unlockOwnIdleJobs(pool, [...ownPools], [...running.keys()])
		if (unlocked > 0) options.log.info(`jobs: unlocked ${unlocked} job(s) whose end was lost while the database was away`)
	}
	const sweep = () =>
		Promise.all([
			unlockJobsOfStoppedRunners(pool).then((pools) => pools.length > 0 && options.log.info(`jobs: unlocked the jobs of stopped runners ${pools.join(', ')}`)),
			sweepOwn(),
		]).catch((error: Error) => options.log.error(`jobs: could not unlock jobs: ${error.message}`))
	// Once the database is back (the liveness connection opens again), at once rather than at the next sweep.
	const liveness = await holdLiveness(options.databaseUrl, options.log, () => void sweep())
	events.on('pool:create', ({ workerPool }) => {
		ownPools.add(workerPool.id)
		liveness.lock(workerPool.id)
	})
	const runner: Runner = await run({
		pgPool: pool,
		taskList,
		// A runner given some tasks only schedules those.
		crontab: crontab.flatMap(([name, line]) => (options.handlers[name] ? [`${line}\n`] : [])).join(''),
		concurrency: options.concurrency ?? 2,
		pollInterval: options.pollInterval ?? defaultPollInterval,
		noHandleSignals: true,
		logger: loggerFor(options.log),
		events,
	})
	await sweep()
	const sweeper = setInterval(() => void sweep(), sweepIntervalMs)
	sweeper.unref()
	return {
		stop: async () => {
			clearInterval(sweeper)
			await runner.stop()
			await liveness.close()
			await pool.end()
		},
	}
}

/**
 * This runner's liveness: its pools' locks, held as long as this connection lives (see
 * unlockJobsOfStoppedRunners). A database restart drops the connection and the locks with it: it
 * is opened again (every second until the database answers) and the locks taken again, or every
 * runner, this one included, would take this live runner for a dead one and unlock its jobs.
 */
async function holdLiveness(databaseUrl: string, log: Log, onReconnected: () => void) {
	const pools = new Set<string>()
	let client: pg.Client | undefined
	let closed = false
	let retry: NodeJS.Timeout | undefined
	const take = (connection: pg.Client, poolId: string) =>
		connection
			.query('select pg_advisory_lock($1, hashtext($2))', [livenessLockClass, poolId])
			.catch((error: Error) => log.error(`job queue liveness lock: ${error.message}`))
	const connect = async () => {
		const connection = new pg.Client({ connectionString: databaseUrl })
		connection.on('error', (error) => {
			log.error(`job queue liveness connection lost: ${error.message}`)
			if (client === connection) reconnect()
		})
		await connection.connect()
		client = connection
		for (const poolId of pools) await take(connection, poolId)
	}
	const reconnect = () => {
		client = undefined
		if (closed || retry) return
		retry = setTimeout(() => {
			retry = undefined
			if (!closed) connect().then(onReconnected, reconnect)
		}, 1000)
		retry.unref()
	}
	await connect()
	return {
		lock: (poolId: string) => {
			pools.add(poolId)
			if (client) void take(client, poolId)
		},
		close: async () => {
			closed = true
			clearTimeout(retry)
			await client?.end()
		},
	}
}

function loggerFor(log: Log): GraphileLogger {
	return new GraphileLogger(() => (level, message) => {
		if (level === 'error') log.error(`jobs: ${message}`)
		else if (level === 'warning') log.info(`jobs: ${message}`)
		else log.debug(`jobs: ${message}`)
	})
}
