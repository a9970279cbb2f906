/**
 * The live inbox at team scale (issue 28): the production server (bench/server.ts: `build/server.js`
 * on loopback, a throw-away DATA_DIR, embedded PostgreSQL), a workspace with an owner and `--agents`
 * agents, each with an open inbox page simulated by one realtime client (the app's own
 * createRealtimeClient, app/realtime/pusher.client.ts, authorised through /v1/realtime/auth with the
 * agent's session) subscribed to `private-workspace-{id}`, while a few dozen chat-link customers write
 * `--rate` messages a second (POST /v1/link/{slug}/messages, spread evenly).
 *
 *   npm run bench:team -- [--no-build] [--agents 200] [--rate 5] [--duration 60] [--mode both|merge|reload] [--profile DIR]
 *
 * `--profile DIR` writes the server's CPU profile there (node --cpu-prof, for Chrome's DevTools or speedscope).
 *
 * What each simulated page does with an event, the two modes measured in the same run:
 * - `merge`, the page of issue 28, mirrors app/realtime/use-workspace-events.ts and
 *   app/realtime/event-sequence.ts (its createEventSequence itself runs here): the events in their
 *   order; the next number is merged in the browser, no request; a gap (a number still missing a
 *   second later), an event without `seq` or with `cut: true`, or a resubscription reloads the page
 *   once; so does an event the page names (the shell's `workspace.`/`member.`, the inbox route's
 *   handle.live) or one its merge cannot settle (app/utils/live-inbox.ts, run here too).
 * - `reload`, the page before it: any event reloads it.
 * A reload is what Remix's revalidation asks of the server: GET /en-us/dashboard/conversations.data
 * with the agent's session cookie (single fetch; since the inbox route has a clientLoader, two: the
 * shell's routes and the inbox's, as the browser does), at most once a second per page, a burst folded into
 * one at the end of the second (app/realtime/throttle.ts, run here), and never two at once: one asked
 * for while one is on its way starts when it ends (app/realtime/use-revalidate-when-idle.ts). The
 * page's presence channel is left out (its joins are not what issue 28 is about).
 *
 * Runs, `--duration` seconds each: a baseline with no agent connected, then merge, then reload.
 * Measured per run: the app's CPU (the server's and PostgreSQL's CPU seconds, from /proc, over wall
 * seconds: cores busy; not this process's, the agents' and customers' side), the customers' POST
 * p50/p99, the data requests' count and p50/p99, the events and customer messages each agent
 * received, and the agents that missed one; per open page and customer message, the app's CPU
 * beyond the baseline's and the bytes received; in merge mode, the time from a customer's POST
 * answered to each page having its message in order; the ratios to the baseline. Writes bench/results/team.json (the server's output to bench/results/team-server.log).
 * Then, the agents gone and no customer writing, opening a conversation from the list (goal 4): the
 * owner opens the conversations one after another, by the request the inbox made before (its route's
 * single fetch), by the one it makes now (the thread route) and by the floor (a request that reads no
 * database), the three taking turns: CPU ms per opening, statements, latency, bytes.
 * Exits 1 when a POST failed, a data request failed or an agent missed a message.
 * Agents are written straight into the database (users, members, sessions, as bench/run.ts does):
 * registering 200 through the API would meet its per-address limit. Checks `ulimit -n` first.
 */
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createCookie } from '@remix-run/node'
import { sql } from 'kysely'
import { createSession } from '#api/auth/sessions.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { type InboxSummaryJson } from '#api/conversations/json.ts'
import { createEventSequence, type EventSequence, type WorkspaceEventEntry } from '#app/realtime/event-sequence.ts'
import { createRealtimeClient, type RealtimeClient } from '#app/realtime/pusher.client.ts'
import { throttle, type Throttled } from '#app/realtime/throttle.ts'
import { inboxQuery, type ConversationPage } from '#app/utils/conversations.ts'
import { mergeInboxEvent, mergeSidebarCounts, type InboxData, type InboxView } from '#app/utils/live-inbox.ts'
import { workspaceChannel } from '#common/realtime.ts'
import {
	callApi,
	cleanup,
	findServerEntry,
	isInterrupted,
	log,
	numberOption,
	percentile,
	resultsDir,
	run,
	serverShutdown,
	sleep,
	startServer,
	table,
	type ServerContext,
} from './server.ts'

type Mode = 'merge' | 'reload'
type Options = { build: boolean; agents: number; rate: number; duration: number; modes: Mode[]; profile: string | undefined }

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			'no-build': { type: 'boolean', default: false },
			agents: { type: 'string', default: '200' },
			rate: { type: 'string', default: '5' },
			duration: { type: 'string', default: '60' },
			mode: { type: 'string', default: 'both' },
			profile: { type: 'string' },
		},
		allowPositionals: false,
	})
	const mode = values.mode
	if (mode !== 'both' && mode !== 'merge' && mode !== 'reload') throw new Error(`--mode must be both, merge or reload, got ${mode}`)
	return {
		build: !values['no-build'] && process.env.BENCH_SKIP_BUILD !== '1',
		agents: Math.round(numberOption('agents', values.agents, 1, 5000)),
		rate: numberOption('rate', values.rate, 0.1, 200),
		duration: Math.round(numberOption('duration', values.duration, 1, 3600)),
		modes: mode === 'both' ? ['merge', 'reload'] : [mode],
		profile: values.profile,
	}
}

// As the page does (app/realtime/use-workspace-events.ts, revalidateIntervalMs).
const reloadIntervalMs = 1000
const dataPaths: Record<Mode, readonly string[]> = {
	reload: ['/en-us/dashboard/conversations.data'],
	merge: [
		`/en-us/dashboard/conversations.data?_routes=${encodeURIComponent('root,routes/$lang.dashboard')}`,
		`/en-us/dashboard/conversations.data?_routes=${encodeURIComponent('routes/$lang.dashboard.conversations')}`,
	],
}
// The events that reload the inbox page though it merges: the shell's (use-workspace-events.ts, shellEvents) and
// its route's handle.live (app/routes/$lang.dashboard.conversations.tsx). Kept by hand: that module renders.
const reloadingEvents = ['workspace.', 'member.', 'label.', 'contact.updated', 'contact.deleted', 'contact.merged']
// A link visitor may send 20 messages a minute, an address 60 (api/link/router.ts): each customer stays well under.
const visitorPerMinute = 12
// How long the last messages' events may take to reach every agent after the last POST.
const drainMs = 5_000
const connectConcurrency = 20
// Sockets besides the agents' WebSockets: their data requests (one each at most), the POSTs, stdio, the loader's files.
const spareDescriptors = 200

// ---------------------------------------------------------------------------------------------
// File descriptors: this process holds a WebSocket and up to one data request per agent, the server as many.

// Node raises its soft limit to the hard one at start-up, so what a shell child reports is what we have.
function descriptorLimit(): number {
	const value = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()
	return value === 'unlimited' ? Infinity : Number(value)
}

function enoughDescriptors(agents: number): boolean {
	const needed = agents * 2 + spareDescriptors
	const limit = descriptorLimit()
	if (limit >= needed) return true
	process.stderr.write(
		`File descriptor limit too low: ulimit -n is ${limit}, and ${agents} agents need about ${needed} in this\n` +
			`process and in the server. Raise it (\`ulimit -n ${needed}\`) or run fewer: --agents ${Math.max(1, Math.floor((limit - spareDescriptors) / 2))}\n`,
	)
	return false
}

// ---------------------------------------------------------------------------------------------
// CPU of the server and its PostgreSQL, from /proc.

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100

type CpuSample = { node: number; postgres: number }

/**
 * CPU seconds so far (user and system, their own) of the server and of its descendants: PostgreSQL's
 * postmaster and the processes it forks, which start their own sessions (so neither the server's
 * process group nor DATA_DIR in their command line finds them).
 */
function processTimes(server: ServerContext): Map<number, number> {
	const stats = new Map<number, { parent: number; seconds: number }>()
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
			// The command name, in parentheses, may hold spaces: the fields are read after it.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
			stats.set(Number(entry), { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / clockTicks })
		} catch {
			// The process ended while it was read.
		}
	}
	const times = new Map<number, number>()
	const within = (pid: number): boolean => {
		for (let at: number | undefined = pid, depth = 0; at !== undefined && at > 1 && depth < 10; at = stats.get(at)?.parent, depth += 1)
			if (at === server.pid) return true
		return false
	}
	for (const [pid, { seconds }] of stats) if (within(pid)) times.set(pid, seconds)
	return times
}

/**
 * The server's and PostgreSQL's CPU seconds from now until `stop`: read every half second, so a
 * process that ends meanwhile (a backend of a closed pool connection) loses half a second at most;
 * one that starts counts from nothing.
 */
function cpuMeter(server: ServerContext): { stop: () => CpuSample } {
	const first = processTimes(server)
	const last = new Map(first)
	const read = () => {
		for (const [pid, seconds] of processTimes(server)) last.set(pid, seconds)
	}
	const timer = setInterval(read, 500)
	return {
		stop() {
			clearInterval(timer)
			read()
			const sample = { node: 0, postgres: 0 }
			for (const [pid, seconds] of last) {
				const used = seconds - (first.get(pid) ?? 0)
				if (pid === server.pid) sample.node += used
				else sample.postgres += used
			}
			return sample
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Setting up: the owner, the workspace, its chat link, the agents, the customers.

type Agent = {
	userId: string
	token: string
	cookie: string
	client?: RealtimeClient
	onEvent?: (entry: WorkspaceEventEntry) => void
	onResubscribed?: () => void
}
type Customer = { token: string; address: string }
type Team = { workspaceId: string; slug: string; owner: Agent; agents: Agent[]; customers: Customer[] }

const tokenCookie = createCookie('crm-token')
const cookieOf = async (token: string) => (await tokenCookie.serialize(token)).split(';')[0] ?? ''

async function setUp(server: ServerContext, db: DB, options: Options): Promise<Team> {
	const { access_token: token, user } = await callApi<{ access_token: string; user: { id: string } }>(server.baseUrl, 'POST', '/v1/auth/register', {
		name: 'Bench Owner',
		email: `bench-${crypto.randomBytes(4).toString('hex')}@example.test`,
		password: 'Bench-password-1',
	})
	const workspace = await callApi<{ id: string }>(server.baseUrl, 'POST', '/v1/workspaces', { name: 'Bench team' }, token)
	// As tests/e2e/inbox-support.ts linkChannel does.
	const slug = `bench-${crypto.randomBytes(6).toString('hex')}`
	await db.insertInto('channels').values({ workspaceId: workspace.id, kind: 'link', name: 'Website chat', slug, settings: {} }).execute()
	const agents: Agent[] = []
	for (let start = 0; start < options.agents; start += 100) {
		const count = Math.min(100, options.agents - start)
		const users = await db
			.insertInto('users')
			.values(
				Array.from({ length: count }, (_, index) => ({
					email: `bench-agent-${start + index}-${crypto.randomBytes(3).toString('hex')}@example.test`,
					name: `Agent ${start + index}`,
					passwordHash: 'x',
					emailVerifiedAt: new Date(),
					currentWorkspaceId: workspace.id,
				})),
			)
			.returning('id')
			.execute()
		await db
			.insertInto('members')
			.values(users.map(({ id }) => ({ workspaceId: workspace.id, userId: id, role: 'agent' as const })))
			.execute()
		for (const { id } of users) {
			const session = await createSession(db, id)
			agents.push({ userId: id, token: session, cookie: await cookieOf(session) })
		}
	}
	// Enough customers that none nears the link's per-visitor limit, each from its own address (trusted from loopback).
	const count = Math.max(24, Math.ceil((options.rate * 60) / visitorPerMinute))
	const customers = Array.from({ length: count }, (_, index) => ({
		token: crypto.randomBytes(32).toString('base64url'),
		address: `10.28.${Math.floor(index / 250)}.${(index % 250) + 1}`,
	}))
	// Each customer's first message opens their conversation: done here, so that every run sees the same events (a message in an open conversation).
	for (let start = 0; start < customers.length; start += 8)
		await Promise.all(
			customers.slice(start, start + 8).map((customer, index) => customerWrites(server.baseUrl, slug, customer, `Hello, customer ${start + index} here`)),
		)
	return { workspaceId: workspace.id, slug, owner: { userId: user.id, token, cookie: await cookieOf(token) }, agents, customers }
}

/** A customer's message through the chat link, as its page's form sends it: its id. */
async function customerWrites(baseUrl: string, slug: string, customer: Customer, body: string): Promise<string> {
	const answer = await callApiWith<{ message: { id: string | number } }>(
		baseUrl,
		'POST',
		`/v1/link/${slug}/messages`,
		{ body },
		{ 'X-Visitor-Token': customer.token, 'X-Forwarded-For': customer.address },
	)
	return String(answer.message.id)
}

// callApi with other headers than a bearer token.
async function callApiWith<T>(baseUrl: string, method: string, url: string, body: unknown, headers: Record<string, string>): Promise<T> {
	const response = await fetch(new URL(url, baseUrl), { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })
	const answer = (await response.json().catch(() => null)) as T
	if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(answer)}`)
	return answer
}

// ---------------------------------------------------------------------------------------------
// The agents' realtime clients: the browser module, authorised through /v1/realtime/* with the agent's session.

function authoriser<Params>(baseUrl: string, pathname: string, token: string, body: (params: Params) => unknown) {
	return (params: Params, callback: (error: Error | null, data: never) => void) => {
		callApi<never>(baseUrl, 'POST', pathname, body(params), token).then(
			(answer) => callback(null, answer),
			(error: Error) => callback(error, null as never),
		)
	}
}

async function connectAgent(server: ServerContext, realtimeKey: string, workspaceId: string, agent: Agent): Promise<void> {
	const { port } = new URL(server.baseUrl)
	const client = await createRealtimeClient(
		{ key: realtimeKey, cluster: 'mt1', wsHost: '127.0.0.1', wsPort: Number(port), forceTLS: false },
		{
			channelAuthorization: {
				customHandler: authoriser(server.baseUrl, '/v1/realtime/auth', agent.token, ({ socketId, channelName }: { socketId: string; channelName: string }) => ({
					socket_id: socketId,
					channel_name: channelName,
				})),
			},
			userAuthentication: {
				customHandler: authoriser(server.baseUrl, '/v1/realtime/user-auth', agent.token, ({ socketId }: { socketId: string }) => ({ socket_id: socketId })),
			},
		},
	)
	if (!client) throw new Error('no realtime client')
	agent.client = client
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error('no subscription within 15 s')), 15_000)
		client.subscribe(workspaceChannel(workspaceId), {
			onSubscribed: () => {
				clearTimeout(timer)
				resolve()
			},
			onEvent: (event, data) => agent.onEvent?.({ event, data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {} }),
			onResubscribed: () => agent.onResubscribed?.(),
		})
	})
}

async function connectAll(server: ServerContext, workspaceId: string, agents: Agent[]): Promise<number> {
	const { key } = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'realtime-app.json'), 'utf8')) as { key: string }
	const started = performance.now()
	let next = 0
	const worker = async () => {
		while (next < agents.length) await connectAgent(server, key, workspaceId, agents[next++]!)
	}
	await Promise.all(Array.from({ length: Math.min(connectConcurrency, agents.length) }, worker))
	return (performance.now() - started) / 1000
}

// ---------------------------------------------------------------------------------------------
// One run: the customers write, the agents' pages do what their mode says.

type Cause = 'event' | 'gap' | 'unnumbered or cut' | 'resubscribed' | 'named by the page' | 'not mergeable'

type RunState = {
	dataLatencies: number[]
	dataErrors: number
	dataBytes: number
	dataStatuses: Record<string, number>
	/** Reloads asked for, by cause (the throttle folds them into fewer requests). */
	causes: Partial<Record<Cause, number>>
	inFlight: number
	seen: Map<Agent, { events: number; bytes: number; messages: Set<string> }>
	/** When a merging page had each customer message in hand, in order (merge mode): messageId and time. */
	merged: Array<{ messageId: string; at: number }>
}

/**
 * A reload as Remix's revalidation: never two at once, one asked for meanwhile starts when the first
 * ends. Its requests, each counted: one single fetch for the page before issue 28; two now, the
 * inbox route having a clientLoader (Remix asks for such a route's data on its own).
 */
function revalidator(baseUrl: string, agent: Agent, state: RunState, paths: readonly string[]) {
	let busy = false
	let missed = false
	const load = async (url: URL) => {
		const started = performance.now()
		try {
			const response = await fetch(url, { headers: { Cookie: agent.cookie } })
			state.dataBytes += (await response.arrayBuffer()).byteLength
			state.dataStatuses[response.status] = (state.dataStatuses[response.status] ?? 0) + 1
			if (response.ok) state.dataLatencies.push(performance.now() - started)
			else state.dataErrors += 1
		} catch {
			state.dataErrors += 1
		}
	}
	const revalidate = (): void => {
		if (busy) {
			missed = true
			return
		}
		busy = true
		state.inFlight += 1
		Promise.all(paths.map((path) => load(new URL(path, baseUrl)))).finally(() => {
			busy = false
			state.inFlight -= 1
			if (!missed) return
			missed = false
			revalidate()
		})
	}
	return revalidate
}

// What the inbox merges into (an empty list, no open thread): only whether an event can be merged matters here.
const emptyInbox = {
	page: { conversations: [], counts: { open: 0, pending: 0, snoozed: 0, resolved: 0 }, countsLimit: null, nextCursor: null } as unknown as ConversationPage,
	conversation: null,
	thread: null,
} satisfies InboxData
const emptySummary = { mine: 0, unassigned: 0 } as InboxSummaryJson

/** An event's size on the wire: the Pusher protocol's frame (its data a JSON string inside the JSON), on a workspace channel. */
const frameBytes = (entry: WorkspaceEventEntry) =>
	Buffer.byteLength(JSON.stringify({ event: entry.event, channel: workspaceChannel('00000000-0000-0000-0000-000000000000'), data: JSON.stringify(entry.data) }))

/** The page's behaviour for this run, on each agent; returns what stops it. */
function install(mode: Mode, baseUrl: string, agents: Agent[], state: RunState): () => void {
	const stops: Array<() => void> = []
	for (const agent of agents) {
		const seen = { events: 0, bytes: 0, messages: new Set<string>() }
		state.seen.set(agent, seen)
		const refresh: Throttled = throttle(revalidator(baseUrl, agent, state, dataPaths[mode]), reloadIntervalMs)
		const reload = (cause: Cause) => {
			state.causes[cause] = (state.causes[cause] ?? 0) + 1
			refresh()
		}
		const count = (entry: WorkspaceEventEntry) => {
			seen.events += 1
			seen.bytes += frameBytes(entry)
			if (entry.event === 'message.created' && entry.data.messageId !== undefined) seen.messages.add(String(entry.data.messageId))
		}
		let sequence: EventSequence | undefined
		if (mode === 'reload') {
			agent.onEvent = (entry) => {
				count(entry)
				reload('event')
			}
			agent.onResubscribed = () => reload('resubscribed')
		} else {
			const view: InboxView = { query: inboxQuery(new URLSearchParams()), me: agent.userId, myTeamIds: [] }
			// Which of the sequence's gaps this is: said by the call it comes from.
			let during: Cause = 'gap'
			const created = createEventSequence({
				deliver(entry) {
					if (entry.event === 'message.created' && entry.data.messageId !== undefined)
						state.merged.push({ messageId: String(entry.data.messageId), at: performance.now() })
					if (reloadingEvents.some((prefix) => entry.event.startsWith(prefix))) reload('named by the page')
					else if (mergeInboxEvent(emptyInbox, view, entry).kind === 'reload' || mergeSidebarCounts(emptySummary, agent.userId, entry).kind === 'reload')
						reload('not mergeable')
				},
				gap: () => reload(during),
			})
			sequence = created
			agent.onEvent = (entry) => {
				count(entry)
				during = 'unnumbered or cut'
				created.receive(entry)
				during = 'gap'
			}
			agent.onResubscribed = () => {
				during = 'resubscribed'
				created.lost()
				during = 'gap'
			}
		}
		stops.push(() => {
			delete agent.onEvent
			delete agent.onResubscribed
			sequence?.stop()
			refresh.cancel()
		})
	}
	return () => stops.forEach((stop) => stop())
}

type Summary = { count: number; p50: number; p99: number; max: number }

function summarise(samples: number[]): Summary {
	const sorted = Float64Array.from(samples).sort()
	return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? (sorted[sorted.length - 1] ?? 0) : 0 }
}

type RunResult = {
	name: string
	seconds: number
	cpu: { app: number; node: number; postgres: number }
	posts: Summary & { errors: number; perSecond: number }
	dataRequests: Summary & { errors: number; averageBytes: number; statuses: Record<string, number>; perAgentPerSecond: number; causes: RunState['causes'] }
	agents: {
		connected: number
		eventsPerAgent: { min: number; avg: number }
		eventBytesPerAgent: number
		messagesPerAgent: { min: number; avg: number }
		messagesExpected: number
		missed: number
	}
	/** From a customer's POST answered to each merging page having the message (merge mode; 0 when it came first). */
	shownAfterPost?: Summary
	vsBaseline?: { cpu: number; postP50: number; postP99: number }
}

async function runOnce(name: string, mode: Mode | undefined, server: ServerContext, team: Team, agents: Agent[], options: Options): Promise<RunResult> {
	const state: RunState = { dataLatencies: [], dataErrors: 0, dataBytes: 0, dataStatuses: {}, causes: {}, inFlight: 0, seen: new Map(), merged: [] }
	const stop = mode ? install(mode, server.baseUrl, agents, state) : () => {}
	const postLatencies: number[] = []
	const expected = new Set<string>()
	const answeredAt = new Map<string, number>()
	let postErrors = 0
	const total = Math.round(options.rate * options.duration)
	const intervalMs = 1000 / options.rate
	const posts: Array<Promise<void>> = []
	const cpu = cpuMeter(server)
	const started = performance.now()
	// Open loop: each POST at its time, whether the one before has answered or not.
	for (let index = 0; index < total && !isInterrupted(); index += 1) {
		const wait = started + index * intervalMs - performance.now()
		if (wait > 0) await sleep(wait)
		const customer = team.customers[index % team.customers.length]!
		const sent = performance.now()
		posts.push(
			customerWrites(server.baseUrl, team.slug, customer, `Message ${index} of the ${name} run`).then(
				(id) => {
					postLatencies.push(performance.now() - sent)
					expected.add(id)
					answeredAt.set(id, performance.now())
				},
				(error: unknown) => {
					postErrors += 1
					if (postErrors <= 3) log(`POST failed: ${error instanceof Error ? error.message : String(error)}`)
				},
			),
		)
	}
	const end = started + options.duration * 1000 - performance.now()
	if (end > 0) await sleep(end)
	const used = cpu.stop()
	const seconds = (performance.now() - started) / 1000
	await Promise.all(posts)
	// The last messages' events, and the reloads they ask for, come after the window: waited for, not measured.
	const everyone = () => agents.every((agent) => [...expected].every((id) => state.seen.get(agent)?.messages.has(id)))
	for (const deadline = Date.now() + drainMs; Date.now() < deadline && !everyone();) await sleep(100)
	await sleep(reloadIntervalMs + 100)
	stop()
	for (const deadline = Date.now() + 10_000; state.inFlight > 0 && Date.now() < deadline;) await sleep(50)
	// The data requests are counted until the last one ended, and so is the time they are spread over.
	const active = (performance.now() - started) / 1000

	const seen = agents.map((agent) => state.seen.get(agent) ?? { events: 0, bytes: 0, messages: new Set<string>() })
	const received = seen.map((each) => [...expected].filter((id) => each.messages.has(id)).length)
	const events = seen.map((each) => each.events)
	const data = summarise(state.dataLatencies)
	const post = summarise(postLatencies)
	const shown = state.merged.flatMap(({ messageId, at }) => {
		const answered = answeredAt.get(messageId)
		return answered === undefined ? [] : [Math.max(0, at - answered)]
	})
	const node = used.node / seconds
	const postgres = used.postgres / seconds
	return {
		name,
		seconds,
		cpu: { app: node + postgres, node, postgres },
		posts: { ...post, errors: postErrors, perSecond: post.count / seconds },
		dataRequests: {
			...data,
			count: data.count + state.dataErrors,
			errors: state.dataErrors,
			averageBytes: data.count ? Math.round(state.dataBytes / data.count) : 0,
			statuses: state.dataStatuses,
			perAgentPerSecond: agents.length ? (data.count + state.dataErrors) / agents.length / active : 0,
			causes: state.causes,
		},
		agents: {
			connected: agents.length,
			eventsPerAgent: { min: events.length ? Math.min(...events) : 0, avg: events.length ? events.reduce((a, b) => a + b, 0) / events.length : 0 },
			eventBytesPerAgent: seen.length ? seen.reduce((sum, each) => sum + each.bytes, 0) / seen.length : 0,
			messagesPerAgent: { min: received.length ? Math.min(...received) : 0, avg: received.length ? received.reduce((a, b) => a + b, 0) / received.length : 0 },
			messagesExpected: expected.size,
			missed: received.filter((count) => count < expected.size).length,
		},
		shownAfterPost: mode === 'merge' ? summarise(shown) : undefined,
	}
}

// ---------------------------------------------------------------------------------------------
// Opening a conversation from the list (issue 28, goal 4): what the page asks of the server.

// Before: Remix's single fetch of the root's and the inbox route's loaders (the shell's shouldRevalidate skips GET navigations).
const openedByPage = (number: number) => [
	`/en-us/dashboard/conversations.data?conversation=${number}&_routes=${encodeURIComponent('root,routes/$lang.dashboard.conversations')}`,
]
// Now: the inbox's clientLoader asks the thread route (app/utils/inbox-navigation.ts); no loader of the page runs.
const openedByThread = (workspaceId: string) => (number: number) => [`/en-us/dashboard/conversations/thread?conversation=${number}&workspace=${workspaceId}`]
// Each way opens `openingsPerRound` conversations in turn, `openingRounds` times: the machine's
// moods (a neighbour's load; they swing a figure by half between runs) fall on every way alike.
const openingRounds = 6
const openingsPerRound = 100
const openings = openingRounds * openingsPerRound
const openingWarmUp = 30
// Statements are counted apart, on fewer openings: PostgreSQL's statistics need a second to be read.
const openingsCounted = 50

/** `bearer`: the API itself, over HTTP with the owner's token, as an integration would call it. */
type OpeningWay = { way: string; addresses: (number: number) => string[]; bearer?: boolean }
type OpeningResult = {
	way: string
	requests: number
	cpuMsPerOpening: { app: number; node: number; postgres: number }
	transactionsPerOpening: number
	latency: Summary
	averageBytes: number
}

/**
 * PostgreSQL's count of committed transactions in the database (a statement outside a transaction is
 * one), once its statistics are flushed: a backend flushes its own within 10 s of going idle.
 */
async function transactions(db: DB): Promise<number> {
	await sleep(10_500)
	const { rows } = await sql<{ count: string }>`select xact_commit::text as count from pg_stat_database where datname = current_database()`.execute(db)
	return Number(rows[0]?.count ?? 0)
}

/** The owner opens the workspace's conversations one after another by each way, the ways taking turns; no customer writes meanwhile. */
async function measureOpenings(server: ServerContext, db: DB, team: Team, ways: OpeningWay[]): Promise<OpeningResult[]> {
	const get = async ({ way, bearer }: OpeningWay, address: string) => {
		const headers: Record<string, string> = bearer ? { Authorization: `Bearer ${team.owner.token}` } : { Cookie: team.owner.cookie }
		const response = await fetch(`${server.baseUrl}${address}`, { headers, redirect: 'manual' })
		const body = await response.arrayBuffer()
		if (response.status !== 200) throw new Error(`${way}: ${address} answered ${response.status}`)
		return body.byteLength
	}
	// The requests of one opening go together, as the browser sends them.
	const open = async (way: OpeningWay, index: number) =>
		(await Promise.all(way.addresses((index % team.customers.length) + 1).map((address) => get(way, address)))).reduce((sum, bytes) => sum + bytes, 0)
	const measured = ways.map((way) => ({ ...way, latencies: [] as number[], bytes: 0, cpu: { node: 0, postgres: 0 }, transactions: 0 }))
	// After the runs' messages, autovacuum would commit transactions of its own while they are counted (and take CPU).
	await sql`vacuum analyze`.execute(db)
	// What the database commits meanwhile on its own (the job runner's polls…) is read over a quiet
	// while first, and taken off; as is the statement that reads each count.
	let counted = await transactions(db)
	let countedAt = performance.now()
	const since = async () => {
		const now = await transactions(db)
		const at = performance.now()
		const committed = now - counted - 1
		const elapsed = at - countedAt
		counted = now
		countedAt = at
		return { committed, elapsed }
	}
	await sleep(1000)
	const quiet = await since()
	const backgroundPerMs = Math.max(0, quiet.committed) / quiet.elapsed
	for (const each of measured) {
		for (let index = 0; index < openingWarmUp; index += 1) await open(each, index)
		await since()
		for (let index = 0; index < openingsCounted; index += 1) await open(each, index)
		const { committed, elapsed } = await since()
		each.transactions = Math.max(0, committed - backgroundPerMs * elapsed) / openingsCounted
	}
	for (let round = 0; round < openingRounds && !isInterrupted(); round += 1) {
		for (const each of measured) {
			const cpu = cpuMeter(server)
			for (let index = round * openingsPerRound; index < (round + 1) * openingsPerRound && !isInterrupted(); index += 1) {
				const started = performance.now()
				each.bytes += await open(each, index)
				each.latencies.push(performance.now() - started)
			}
			const used = cpu.stop()
			each.cpu.node += used.node
			each.cpu.postgres += used.postgres
		}
	}
	return measured.map(({ way, latencies, bytes, cpu, transactions }) => {
		const perOpening = (seconds: number) => (seconds * 1000) / Math.max(1, latencies.length)
		return {
			way,
			requests: latencies.length,
			cpuMsPerOpening: { app: perOpening(cpu.node + cpu.postgres), node: perOpening(cpu.node), postgres: perOpening(cpu.postgres) },
			transactionsPerOpening: transactions,
			latency: summarise(latencies),
			averageBytes: Math.round(bytes / Math.max(1, latencies.length)),
		}
	})
}

// ---------------------------------------------------------------------------------------------

/**
 * What one open page costs per customer message: the app's CPU beyond the baseline's, and the bytes
 * it receives (the events' frames, and its data requests' answers).
 */
function perPageAndMessage(result: RunResult, baseline: RunResult): { cpuMs: number; kilobytes: number } {
	const pageMessages = result.agents.connected * Math.max(1, result.agents.messagesExpected)
	const extraCpuMs = (result.cpu.app - baseline.cpu.app) * result.seconds * 1000
	const bytes =
		result.agents.eventBytesPerAgent * result.agents.connected + result.dataRequests.averageBytes * (result.dataRequests.count - result.dataRequests.errors)
	return { cpuMs: extraCpuMs / pageMessages, kilobytes: bytes / 1024 / pageMessages }
}

const loadAverage = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ')
const ms = (value: number) => value.toFixed(1)
const times = (value: number, base: number) => (base > 0 && Number.isFinite(value / base) ? `${(value / base).toFixed(2)}×` : 'n/a')

async function main() {
	const options = parseOptions()
	if (!enoughDescriptors(options.agents)) {
		process.exitCode = 1
		return
	}
	if (options.build) {
		log('building for production (npm run build; skip with --no-build)')
		await run('npm', ['run', 'build'])
	}
	const entry = findServerEntry()
	let db: DB | undefined
	const agents: Agent[] = []
	try {
		// All agents connect from loopback: the per-address cap (50, an office behind one NAT) would refuse most of them.
		const nodeArgs = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`] : []
		const server = await startServer(entry, {
			logName: 'team-server.log',
			nodeArgs,
			env: { REALTIME_MAX_CONNECTIONS_PER_ADDRESS: String(options.agents + 100) },
		})
		db = createDb(server.databaseUrl, 2)
		const team = await setUp(server, db, options)
		log(`workspace with ${options.agents} agents and ${team.customers.length} chat-link customers`)
		const loadBefore = loadAverage()

		log(`baseline: ${options.rate} customer messages/s for ${options.duration} s, no agent connected`)
		const results: RunResult[] = [await runOnce('baseline', undefined, server, team, [], options)]
		if (isInterrupted()) return

		log(`connecting ${options.agents} agents to ${workspaceChannel(team.workspaceId)}`)
		const connectSeconds = await connectAll(server, team.workspaceId, team.agents)
		agents.push(...team.agents)
		await sleep(1000)
		for (const mode of options.modes) {
			log(`${mode}: ${options.rate} customer messages/s for ${options.duration} s, ${options.agents} agents' pages`)
			results.push(await runOnce(mode, mode, server, team, agents, options))
			if (isInterrupted()) return
			await sleep(2000)
		}
		for (const agent of agents.splice(0)) agent.client?.close()
		await sleep(1000)
		log(`opening a conversation: ${openings} times each way (the whole inbox route's data, the thread route's, the floor), in turns of ${openingsPerRound}`)
		const opening = await measureOpenings(server, db, team, [
			{ way: 'inbox route (before)', addresses: openedByPage },
			{ way: 'thread route (now)', addresses: openedByThread(team.workspaceId) },
			// The API's part of it, over HTTP: the view the thread route asks for, and the lightest read of a workspace (the sidebar's two counts).
			{
				way: 'API: the view (HTTP)',
				addresses: (number) => [`/v1/workspaces/${team.workspaceId}/conversations/${number}/view?limit=30&others=10`],
				bearer: true,
			},
			{ way: 'API: the summary (HTTP)', addresses: () => [`/v1/workspaces/${team.workspaceId}/conversations/summary`], bearer: true },
			// The thread route asked for no conversation: its session read from the cookie, no API call.
			{ way: 'thread route, no API call', addresses: () => [`/en-us/dashboard/conversations/thread?workspace=${team.workspaceId}`] },
			// The floor: a request through Express and Remix that reads no database (the root's loader: theme and toast from cookies).
			{ way: 'root loader (floor)', addresses: (number) => [`/en-us/dashboard/conversations.data?conversation=${number}&_routes=root`] },
		])
		const loadAfter = loadAverage()
		const [baseline] = results
		for (const result of results)
			result.vsBaseline = {
				cpu: result.cpu.app / baseline!.cpu.app,
				postP50: result.posts.p50 / baseline!.posts.p50,
				postP99: result.posts.p99 / baseline!.posts.p99,
			}

		const cpus = os.cpus()
		const report = {
			date: new Date().toISOString(),
			machine: {
				cpus: cpus.length,
				cpuModel: cpus[0]?.model.trim() ?? 'unknown',
				platform: `${os.platform()} ${os.release()}`,
				node: process.version,
				loadAverageBefore: loadBefore,
				loadAverageAfter: loadAfter,
			},
			options: { agents: options.agents, rate: options.rate, duration: options.duration, modes: options.modes },
			setup: { customers: team.customers.length, connectSeconds },
			runs: Object.fromEntries(results.map((result) => [result.name, result])),
			opening,
			shutdown: undefined as ReturnType<typeof serverShutdown>,
		}
		await db.destroy()
		db = undefined
		await sleep(500)
		await cleanup()
		report.shutdown = serverShutdown()
		fs.mkdirSync(resultsDir, { recursive: true })
		const file = path.join(resultsDir, 'team.json')
		fs.writeFileSync(file, `${JSON.stringify(report, null, '\t')}\n`)

		const write = (text: string) => process.stdout.write(`${text}\n`)
		write('')
		write(
			`${cpus.length} × ${report.machine.cpuModel}, ${report.machine.platform}, Node ${process.version}; load average ${loadBefore} before, ${loadAfter} after (a shared machine: noisy figures)`,
		)
		write(
			`${options.agents} agents on ${workspaceChannel('…')} (connected in ${connectSeconds.toFixed(1)} s), ${options.rate} customer messages/s from ${team.customers.length} customers, ${options.duration} s a run`,
		)
		write('')
		write(
			table([
				[
					'run',
					'app CPU',
					'node',
					'postgres',
					'CPU vs base',
					'ms/page/msg',
					'KB/page/msg',
					'POST p50',
					'POST p99',
					'p99 vs base',
					'data req',
					'req/agent/s',
					'data p50',
					'data p99',
					'events/agent',
					'msgs/agent',
					'missed',
				],
				...results.map((result) => [
					result.name,
					`${result.cpu.app.toFixed(2)} cores`,
					result.cpu.node.toFixed(2),
					result.cpu.postgres.toFixed(2),
					times(result.cpu.app, baseline!.cpu.app),
					result.agents.connected ? perPageAndMessage(result, baseline!).cpuMs.toFixed(3) : '-',
					result.agents.connected ? perPageAndMessage(result, baseline!).kilobytes.toFixed(2) : '-',
					ms(result.posts.p50),
					ms(result.posts.p99),
					times(result.posts.p99, baseline!.posts.p99),
					String(result.dataRequests.count),
					result.dataRequests.perAgentPerSecond.toFixed(2),
					result.dataRequests.count ? ms(result.dataRequests.p50) : '-',
					result.dataRequests.count ? ms(result.dataRequests.p99) : '-',
					result.agents.connected ? `${result.agents.eventsPerAgent.min}–${Math.round(result.agents.eventsPerAgent.avg)}` : '-',
					result.agents.connected ? `${result.agents.messagesPerAgent.min}/${result.agents.messagesExpected}` : '-',
					result.agents.connected ? String(result.agents.missed) : '-',
				]),
			]),
		)
		write('')
		write(
			'Times in ms. ms/page/msg and KB/page/msg: the app CPU beyond the baseline, and the bytes a page received (events and data answers), per open page and customer message.',
		)
		write('events/agent: fewest–average events seen by an agent; msgs/agent: fewest customer messages an agent saw, of those sent.')
		for (const result of results.slice(1)) {
			if (result.shownAfterPost)
				write(
					`${result.name}: a customer message in each page's hands after its POST answered: p50 ${ms(result.shownAfterPost.p50)}, p99 ${ms(result.shownAfterPost.p99)}, max ${ms(result.shownAfterPost.max)} ms (${result.shownAfterPost.count} page-messages)`,
				)
			const causes = Object.entries(result.dataRequests.causes).map(([cause, count]) => `${cause} ${count}`)
			write(
				`${result.name}: reloads asked for: ${causes.join(', ') || 'none'}; data answers ${JSON.stringify(result.dataRequests.statuses)}, ${result.dataRequests.averageBytes} bytes each on average`,
			)
		}
		write('')
		write(
			`Opening a conversation from the list, ${openings} times each way in turns of ${openingsPerRound} (the owner's session, one at a time; statements: ${openingsCounted} openings each):`,
		)
		write(
			table([
				['way', 'CPU ms/opening', 'node', 'postgres', 'vs before', 'statements', 'p50 ms', 'p99 ms', 'bytes'],
				...opening.map((each) => [
					each.way,
					ms(each.cpuMsPerOpening.app),
					ms(each.cpuMsPerOpening.node),
					ms(each.cpuMsPerOpening.postgres),
					times(each.cpuMsPerOpening.app, opening[0]!.cpuMsPerOpening.app),
					each.transactionsPerOpening.toFixed(1),
					ms(each.latency.p50),
					ms(each.latency.p99),
					String(each.averageBytes),
				]),
			]),
		)
		write(`written to ${path.relative(process.cwd(), file)}`)
		const problems = results
			.flatMap((result) => [
				result.posts.errors > 0 && `${result.name}: ${result.posts.errors} POSTs failed`,
				result.dataRequests.errors > 0 && `${result.name}: ${result.dataRequests.errors} data requests failed`,
				result.agents.missed > 0 && `${result.name}: ${result.agents.missed} agents missed a message`,
			])
			.filter(Boolean)
		if (problems.length > 0) {
			process.stderr.write(`\nFAILED: ${problems.join('; ')}\n`)
			process.exitCode = 1
		}
	} finally {
		for (const agent of agents) agent.client?.close()
		await db?.destroy()
	}
}

main()
	.catch((error: unknown) => {
		if (!isInterrupted()) process.stderr.write(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
		process.exitCode = 1
	})
	.finally(async () => {
		if (!isInterrupted()) await cleanup()
		// pusher-js's timers would keep the process alive.
		process.exit()
	})
