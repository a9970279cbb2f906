/**
 * Realtime benchmark: forks the embedded Pusher-protocol server (bench/realtime-server.ts, its own
 * process so its RSS is its own) on loopback, connects N WebSocket clients speaking protocol 7,
 * subscribes each to a public and a private channel (signed here with the app secret), publishes
 * through the HTTP events API with the official `pusher` SDK and times publish-to-receive with a
 * timestamp in the payload.
 *
 *   npm run bench:realtime -- [--clients 2000] [--publishes 200] [--concurrency 100]
 *
 * Baselines, measured in the same run before the N clients connect: GET /healthz on the same
 * server, a pusher:ping round trip and publish-to-receive with a single subscriber. The N-client
 * figures are printed as ratios of those. Exits non-zero if a client failed or a delivery was lost.
 * Checks `ulimit -n` first: this process and the server each hold one socket per client.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import PusherServer from 'pusher'
import { WebSocket } from 'ws'
import { BENCH_APP, type ServerMessage, type ServerRequest } from './realtime-protocol.ts'

const PUBLIC_CHANNEL = 'bench'
const PRIVATE_CHANNEL = 'private-bench'
const EVENT = 'tick'
const WARMUP_PUBLISHES = 10
const DELIVERY_TIMEOUT_MS = 10_000
const CONNECT_TIMEOUT_MS = 15_000
// Sockets besides the clients: the SDK's HTTP requests, stdio, IPC, the loader's own files.
const SPARE_DESCRIPTORS = 200

type Options = { clients: number; publishes: number; concurrency: number }

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			clients: { type: 'string', default: '2000' },
			publishes: { type: 'string', default: '200' },
			concurrency: { type: 'string', default: '100' },
		},
		allowPositionals: false,
	})
	const integer = (name: string, value: string, min: number): number => {
		const parsed = Number(value)
		if (!Number.isInteger(parsed) || parsed < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${value}`)
		return parsed
	}
	return {
		clients: integer('clients', values.clients, 1),
		publishes: integer('publishes', values.publishes, 2),
		concurrency: integer('concurrency', values.concurrency, 1),
	}
}

// ---------------------------------------------------------------------------------------------
// File descriptors: each process (this one and the server) holds one socket per client.

// Node raises its soft limit to the hard one at start-up, so what a shell child reports is what we have.
function descriptorLimit(): number {
	const value = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()
	return value === 'unlimited' ? Infinity : Number(value)
}

function enoughDescriptors(clients: number): boolean {
	const needed = clients + SPARE_DESCRIPTORS
	const limit = descriptorLimit()
	if (limit >= needed) return true
	process.stderr.write(
		`File descriptor limit too low: ulimit -n is ${limit} (already raised to the hard limit), and ${clients} clients\n` +
			`need about ${needed} in this process and as many in the server process. Raise the hard limit\n` +
			`(\`ulimit -Hn ${needed}\` as root, LimitNOFILE= for a systemd unit, --ulimit nofile= for Docker)\n` +
			`or run fewer clients: --clients ${Math.max(1, limit - SPARE_DESCRIPTORS)}\n`,
	)
	return false
}

// ---------------------------------------------------------------------------------------------
// The server process.

type Server = {
	port: number
	stats(): Promise<Extract<ServerMessage, { type: 'stats' }>>
	close(): Promise<void>
}

function startServer(): Promise<Server> {
	const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'realtime-server.ts')
	// Same loader flags as this process (tsx), plus gc() so RSS is read after a collection.
	const child: ChildProcess = fork(entry, [], { execArgv: [...process.execArgv, '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	const request = (message: ServerRequest): void => {
		child.send(message)
	}
	return new Promise((resolve, reject) => {
		child.once('error', reject)
		child.once('exit', (code) => reject(new Error(`realtime server exited early with code ${code}`)))
		child.once('message', (message: ServerMessage) => {
			if (message.type !== 'listening') return reject(new Error(`unexpected message ${JSON.stringify(message)}`))
			resolve({
				port: message.port,
				stats: () =>
					new Promise((resolveStats) => {
						const onMessage = (reply: ServerMessage): void => {
							if (reply.type !== 'stats') return
							child.off('message', onMessage)
							resolveStats(reply)
						}
						child.on('message', onMessage)
						request({ type: 'stats' })
					}),
				close: async () => {
					request({ type: 'close' })
					await exited
				},
			})
		})
	})
}

// ---------------------------------------------------------------------------------------------
// Clients: bare WebSockets speaking the Pusher protocol, lighter than pusher-js at this count.

type Frame = { event: string; channel?: string; data?: unknown }

type Client = {
	ws: WebSocket
	socketId: string
	// Called with the receive time and the payload of each `tick`.
	onTick?: (receivedAt: number, payload: Tick) => void
}

type Tick = { seq: number; t: number }

function connectClient(port: number, sdk: PusherServer, channels: string[]): Promise<Client> {
	return new Promise((resolve, reject) => {
		const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${BENCH_APP.key}?protocol=7&client=bench&version=1`, { perMessageDeflate: false })
		const client: Client = { ws, socketId: '' }
		const pending = new Set(channels)
		const timer = setTimeout(() => fail(new Error(`no subscription after ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS)
		function fail(error: Error): void {
			clearTimeout(timer)
			ws.terminate()
			reject(error)
		}
		ws.once('error', fail)
		ws.once('close', (code) => fail(new Error(`closed with ${code} before subscribing`)))
		ws.on('message', (raw: Buffer) => {
			const receivedAt = performance.now()
			const frame = JSON.parse(raw.toString('utf8')) as Frame
			if (frame.event === EVENT && typeof frame.data === 'string') {
				client.onTick?.(receivedAt, JSON.parse(frame.data) as Tick)
			} else if (frame.event === 'pusher:connection_established' && typeof frame.data === 'string') {
				client.socketId = (JSON.parse(frame.data) as { socket_id: string }).socket_id
				for (const channel of channels) {
					const auth = channel.startsWith('private-') ? sdk.authorizeChannel(client.socketId, channel) : {}
					ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, ...auth } }))
				}
			} else if (frame.event === 'pusher_internal:subscription_succeeded' && frame.channel !== undefined) {
				pending.delete(frame.channel)
				if (pending.size === 0) {
					clearTimeout(timer)
					ws.removeAllListeners('close')
					ws.removeAllListeners('error')
					ws.on('error', () => undefined)
					resolve(client)
				}
			} else if (frame.event === 'pusher:error' || frame.event === 'pusher:subscription_error') {
				fail(new Error(`${frame.event}: ${JSON.stringify(frame.data)}`))
			}
		})
	})
}

async function connectAll(port: number, sdk: PusherServer, count: number, concurrency: number): Promise<{ clients: Client[]; errors: Map<string, number> }> {
	const clients: Client[] = []
	const errors = new Map<string, number>()
	let started = 0
	async function worker(): Promise<void> {
		while (started < count) {
			started += 1
			try {
				clients.push(await connectClient(port, sdk, [PUBLIC_CHANNEL, PRIVATE_CHANNEL]))
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error)
				errors.set(message, (errors.get(message) ?? 0) + 1)
			}
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
	return { clients, errors }
}

// ---------------------------------------------------------------------------------------------
// Measurements.

type Summary = { p50: number; p99: number; samples: number }

function summarise(samples: Float64Array | number[]): Summary {
	const sorted = Float64Array.from(samples).sort()
	// Nearest-rank percentile, as bench/run.ts computes it.
	const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
	return { p50: at(50), p99: at(99), samples: sorted.length }
}

async function timeHealthz(port: number, rounds: number): Promise<Summary> {
	const url = `http://127.0.0.1:${port}/healthz`
	const samples: number[] = []
	for (let round = -WARMUP_PUBLISHES; round < rounds; round += 1) {
		const start = performance.now()
		const response = await fetch(url)
		await response.arrayBuffer()
		if (!response.ok) throw new Error(`GET /healthz answered ${response.status}`)
		if (round >= 0) samples.push(performance.now() - start)
	}
	return summarise(samples)
}

async function timePing(client: Client, rounds: number): Promise<Summary> {
	const samples: number[] = []
	for (let round = -WARMUP_PUBLISHES; round < rounds; round += 1) {
		const start = performance.now()
		await new Promise<void>((resolve) => {
			const onMessage = (raw: Buffer): void => {
				if (!raw.toString('utf8').includes('pusher:pong')) return
				client.ws.off('message', onMessage)
				resolve()
			}
			client.ws.on('message', onMessage)
			client.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }))
		})
		if (round >= 0) samples.push(performance.now() - start)
	}
	return summarise(samples)
}

type PublishRun = {
	delivery: Summary
	lastDelivery: Summary
	trigger: Summary
	delivered: number
	expected: number
	seconds: number
}

// Publishes one event at a time, alternating the public and the private channel, and waits for every client to get it.
async function timePublishes(sdk: PusherServer, clients: Client[], publishes: number): Promise<PublishRun> {
	const deliveries = new Float64Array(clients.length * publishes)
	const lastDeliveries: number[] = []
	const triggers: number[] = []
	let delivered = 0
	let current = { seq: Number.NaN, remaining: 0, last: 0, done: (): void => undefined }
	for (const client of clients) {
		client.onTick = (receivedAt, payload) => {
			if (payload.seq !== current.seq) return
			const latency = receivedAt - payload.t
			if (payload.seq >= 0) deliveries[delivered++] = latency
			current.last = Math.max(current.last, latency)
			current.remaining -= 1
			if (current.remaining === 0) current.done()
		}
	}
	const started = performance.now()
	for (let seq = -WARMUP_PUBLISHES; seq < publishes; seq += 1) {
		const channel = seq % 2 === 0 ? PUBLIC_CHANNEL : PRIVATE_CHANNEL
		let timer: NodeJS.Timeout | undefined
		const all = new Promise<void>((resolve) => {
			current = { seq, remaining: clients.length, last: 0, done: resolve }
			timer = setTimeout(resolve, DELIVERY_TIMEOUT_MS)
		})
		const t = performance.now()
		await sdk.trigger(channel, EVENT, { seq, t } satisfies Tick)
		if (seq >= 0) triggers.push(performance.now() - t)
		await all
		clearTimeout(timer)
		if (seq >= 0 && current.remaining === 0) lastDeliveries.push(current.last)
	}
	const seconds = (performance.now() - started) / 1000
	for (const client of clients) delete client.onTick
	return {
		delivery: summarise(deliveries.subarray(0, delivered)),
		lastDelivery: summarise(lastDeliveries),
		trigger: summarise(triggers),
		delivered,
		expected: clients.length * publishes,
		seconds,
	}
}

// ---------------------------------------------------------------------------------------------
// Report.

function table(rows: string[][]): string {
	const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
	const line = (row: string[]): string =>
		row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')
	const [header, ...body] = rows
	if (!header) return ''
	return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...body.map(line)].join('\n')
}

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : 'n/a')
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`
const times = (value: number, base: number): string => (Number.isFinite(value / base) && base > 0 ? `${(value / base).toFixed(1)}×` : 'n/a')

function write(text: string): void {
	process.stdout.write(`${text}\n`)
}

function log(text: string): void {
	process.stderr.write(`· ${text}\n`)
}

async function main(): Promise<void> {
	const options = parseOptions()
	if (!enoughDescriptors(options.clients)) {
		process.exitCode = 1
		return
	}
	const server = await startServer()
	const sdk = new PusherServer({
		appId: BENCH_APP.id,
		key: BENCH_APP.key,
		secret: BENCH_APP.secret,
		host: '127.0.0.1',
		port: String(server.port),
		useTLS: false,
	})
	let clients: Client[] = []
	try {
		log(`server on 127.0.0.1:${server.port}; baselines`)
		const idle = await server.stats()
		const healthz = await timeHealthz(server.port, options.publishes)
		const single = await connectClient(server.port, sdk, [PUBLIC_CHANNEL, PRIVATE_CHANNEL])
		const ping = await timePing(single, options.publishes)
		const alone = await timePublishes(sdk, [single], options.publishes)
		single.ws.terminate()

		log(`connecting ${options.clients} clients, ${options.concurrency} at a time`)
		const connectStart = performance.now()
		const connected = await connectAll(server.port, sdk, options.clients, options.concurrency)
		const connectSeconds = (performance.now() - connectStart) / 1000
		clients = connected.clients
		for (const [message, count] of connected.errors) log(`${count} clients failed: ${message}`)
		if (connected.errors.size > 0 && [...connected.errors.keys()].some((message) => message.includes('EMFILE'))) {
			log('EMFILE: out of file descriptors; raise `ulimit -n` or lower --clients')
		}
		const loaded = await server.stats()

		log(`${options.publishes} publishes to ${clients.length} clients`)
		const fanout = await timePublishes(sdk, clients, options.publishes)
		const after = await server.stats()

		const perConnection = clients.length > 0 ? (loaded.rss - idle.rss) / clients.length : Number.NaN
		const cpus = os.cpus()
		write('')
		write(`${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, Node ${process.version}`)
		write(`${options.clients} clients (each on ${PUBLIC_CHANNEL} and ${PRIVATE_CHANNEL}), ${options.publishes} publishes alternating the two, loopback`)
		write('')
		write(
			table([
				['', 'value'],
				['connections held (clients / server count after publishing)', `${clients.length} / ${after.connections}`],
				['connect + subscribe (2 channels)', `${connectSeconds.toFixed(1)} s, ${Math.round(clients.length / connectSeconds)}/s`],
				['server RSS idle → with clients', `${mb(idle.rss)} → ${mb(loaded.rss)}`],
				['server RSS per connection', `${(perConnection / 1024).toFixed(1)} KB`],
				['server RSS after publishing', mb(after.rss)],
				['server heap idle → with clients', `${mb(idle.heapUsed)} → ${mb(loaded.heapUsed)}`],
				['deliveries', `${fanout.delivered} / ${fanout.expected} in ${fanout.seconds.toFixed(1)} s`],
			]),
		)
		write('')
		const base = alone.delivery
		write(
			table([
				['latency (ms)', 'p50', 'p99', 'p50 vs 1 subscriber', 'p99 vs 1 subscriber', 'p50 vs /healthz'],
				['baseline: GET /healthz', ms(healthz.p50), ms(healthz.p99), times(healthz.p50, base.p50), times(healthz.p99, base.p99), '1.0×'],
				['baseline: pusher:ping round trip', ms(ping.p50), ms(ping.p99), times(ping.p50, base.p50), times(ping.p99, base.p99), times(ping.p50, healthz.p50)],
				['baseline: publish → receive, 1 subscriber', ms(base.p50), ms(base.p99), '1.0×', '1.0×', times(base.p50, healthz.p50)],
				[
					`publish → receive, each of ${clients.length}`,
					ms(fanout.delivery.p50),
					ms(fanout.delivery.p99),
					times(fanout.delivery.p50, base.p50),
					times(fanout.delivery.p99, base.p99),
					times(fanout.delivery.p50, healthz.p50),
				],
				[
					`publish → last of ${clients.length} received`,
					ms(fanout.lastDelivery.p50),
					ms(fanout.lastDelivery.p99),
					times(fanout.lastDelivery.p50, base.p50),
					times(fanout.lastDelivery.p99, base.p99),
					times(fanout.lastDelivery.p50, healthz.p50),
				],
				[
					`trigger() HTTP round trip, ${clients.length} subscribers`,
					ms(fanout.trigger.p50),
					ms(fanout.trigger.p99),
					times(fanout.trigger.p50, alone.trigger.p50),
					times(fanout.trigger.p99, alone.trigger.p99),
					times(fanout.trigger.p50, healthz.p50),
				],
			]),
		)
		write('')
		write("Latencies include the clients' own parsing in this process; trigger() ratios compare with trigger() to 1 subscriber.")
		if (connected.errors.size > 0 || fanout.delivered < fanout.expected || after.connections < clients.length) {
			process.stderr.write('\nFAILED: clients did not connect, deliveries were lost or connections dropped\n')
			process.exitCode = 1
		}
	} finally {
		for (const client of clients) client.ws.terminate()
		await server.close()
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
	process.exitCode = 1
	// The forked server notices the disconnect and exits.
	process.exit()
})
