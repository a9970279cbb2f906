/**
 * Integrations' cost (issue 33), on the real /v1 router on loopback with an embedded PostgreSQL and
 * a job runner of every task:
 *
 * - A chat-link customer's message (POST /v1/link/{slug}/messages) until stored, p50 and p99, in a
 *   workspace without a webhook subscription (the baseline: the triggers look and find none) and in
 *   one subscribed to every event (the triggers write the outbox and wake the fan-out, in the
 *   message's transaction).
 * - From that POST to the signed `message.created` arriving at a receiver on loopback (HTTPS, each
 *   request verified with `standardwebhooks` as an integration would), p50 and p99, and the
 *   deliveries a second the receiver took over the run.
 * - A read of /v1 (GET …/labels, one at a time) with a member's session (the baseline) and with a
 *   bot token: what reading the token, its scopes and its rate limit adds.
 *
 *   npm run bench:integrations -- [--messages 300] [--concurrency 4] [--reads 500]
 *
 * Writes bench/results/integrations.json.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import https from 'node:https'
import path from 'node:path'
import { type AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Webhook } from 'standardwebhooks'
import { createToken } from '#api/access-tokens/queries.ts'
import { createSession } from '#api/auth/sessions.ts'
import { type DB } from '#api/db/database.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner } from '#api/jobs/queue.ts'
import { createSubscription } from '#api/outgoing-webhooks/subscriptions.ts'
import { webhookEventTypes } from '#common/webhooks.ts'
import { receiverCertificatePath } from '../tests/fakes/webhook-receiver.ts'
import { postLinkMessage, quiet, seedLinkWorkspace, withInProcessApi } from './in-process.ts'
import { log, numberOption, percentile, resultsDir, table } from './server.ts'

const { values } = parseArgs({
	options: { messages: { type: 'string', default: '300' }, concurrency: { type: 'string', default: '4' }, reads: { type: 'string', default: '500' } },
})
const messages = numberOption('messages', values.messages, 10, 10_000)
const concurrency = numberOption('concurrency', values.concurrency, 1, 64)
// Under the token's 600 a minute, warm-up included.
const reads = numberOption('reads', values.reads, 10, 290)

const at = (list: number[], p: number) => percentile(Float64Array.from(list).sort(), p)

/** When each message's `message.created` reached the receiver, by message id. */
const arrived = new Map<string, number>()
let received = 0

async function startReceiver(secret: () => string) {
	const server = https.createServer(
		{ cert: fs.readFileSync(receiverCertificatePath), key: fs.readFileSync(path.join(path.dirname(receiverCertificatePath), 'key.pem')) },
		(request, response) => {
			const chunks: Buffer[] = []
			request.on('data', (chunk: Buffer) => chunks.push(chunk))
			request.on('end', () => {
				const event = new Webhook(secret()).verify(Buffer.concat(chunks).toString(), request.headers as Record<string, string>) as {
					type: string
					data: { message?: { id: string } }
				}
				received++
				if (event.type === 'message.created' && event.data.message) arrived.set(event.data.message.id, performance.now())
				response.writeHead(204).end()
			})
		},
	)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }
}

async function measure(url: string, slug: string, net: number, delivered: boolean) {
	const stored: number[] = []
	const sent = new Map<string, number>()
	let next = 0
	async function customer() {
		while (next < messages) {
			const index = next++
			const started = performance.now()
			sent.set(await postLinkMessage(url, slug, { net, index }), started)
			stored.push(performance.now() - started)
		}
	}
	const first = performance.now()
	const receivedBefore = received
	await Promise.all(Array.from({ length: concurrency }, customer))
	const toReceiver: number[] = []
	if (delivered) {
		for (const [id, started] of sent) {
			for (let waited = 0; !arrived.has(id); waited++) {
				if (waited > 60_000) throw new Error(`message ${id} never reached the receiver`)
				await new Promise((resolve) => setTimeout(resolve, 1))
			}
			toReceiver.push(arrived.get(id)! - started)
		}
	}
	const seconds = (performance.now() - first) / 1000
	return {
		storedP50: at(stored, 50),
		storedP99: at(stored, 99),
		receivedP50: delivered ? at(toReceiver, 50) : null,
		receivedP99: delivered ? at(toReceiver, 99) : null,
		deliveriesPerSecond: delivered ? (received - receivedBefore) / seconds : null,
	}
}

/** One GET at a time with `token` (a session's or an access token), after a warm-up of a tenth as many. */
async function measureReads(url: string, workspaceId: string, token: string) {
	const read = async () => {
		const started = performance.now()
		const response = await fetch(`${url}/v1/workspaces/${workspaceId}/labels`, { headers: { Authorization: `Bearer ${token}` } })
		if (!response.ok) throw new Error(`GET answered ${response.status}: ${await response.text()}`)
		await response.arrayBuffer()
		return performance.now() - started
	}
	for (let index = 0; index < reads / 10; index++) await read()
	const times: number[] = []
	for (let index = 0; index < reads; index++) times.push(await read())
	return { p50: at(times, 50), p99: at(times, 99) }
}

/** A member (owner) of the workspace with a session, and a bot token of it that may read settings. */
async function readers(db: DB, workspaceId: string) {
	const user = await db
		.insertInto('users')
		.values({ email: `${crypto.randomBytes(6).toString('hex')}@bench.test`, name: 'Owner', passwordHash: 'x' })
		.returning(['id'])
		.executeTakeFirstOrThrow()
	await db.insertInto('members').values({ workspaceId, userId: user.id, role: 'owner' }).execute()
	const session = await createSession(db, user.id)
	const { secret } = await createToken(db, workspaceId, user, { kind: 'bot', name: 'Bench bot', scopes: ['settings:read'] })
	return { session, secret }
}

async function main() {
	let secret = ''
	const receiver = await startReceiver(() => secret)
	try {
		await withInProcessApi(
			'integrations',
			async ({ db, databaseUrl, config, url }) => {
				const runner = await startJobRunner({ db, databaseUrl, handlers: jobHandlers, log: quiet, config, concurrency: 4 })
				try {
					const plain = await seedLinkWorkspace(db, 'No subscription')
					const subscribed = await seedLinkWorkspace(db, 'Subscribed to every event')
					secret = (
						await createSubscription(db, {
							workspaceId: subscribed.workspaceId,
							url: receiver.url,
							events: webhookEventTypes,
							createdBy: null,
							encryptionKey: config.ENCRYPTION_KEY,
						})
					).secret
					// Warm each, then measure it.
					await measure(url, plain.slug, 1, false)
					const baseline = await measure(url, plain.slug, 2, false)
					await measure(url, subscribed.slug, 3, true)
					const withWebhooks = await measure(url, subscribed.slug, 4, true)
					const { session, secret: bot } = await readers(db, plain.workspaceId)
					const withSession = await measureReads(url, plain.workspaceId, session)
					const withToken = await measureReads(url, plain.workspaceId, bot)
					const ms = (value: number | null) => (value === null ? '–' : `${value.toFixed(1)} ms`)
					const results = [
						{ what: 'customer message, no subscription (baseline)', ...baseline },
						{ what: 'customer message, subscribed to every event', ...withWebhooks },
					]
					process.stdout.write(
						`${table([
							['scenario', 'stored p50', 'stored p99', 'at receiver p50', 'at receiver p99', 'deliveries/s'],
							...results.map((result) => [
								result.what,
								ms(result.storedP50),
								ms(result.storedP99),
								ms(result.receivedP50),
								ms(result.receivedP99),
								result.deliveriesPerSecond === null ? '–' : result.deliveriesPerSecond.toFixed(0),
							]),
						])}\n`,
					)
					process.stdout.write(
						`${table([
							['a read of /v1', 'p50', 'p99'],
							['with a session (baseline)', ms(withSession.p50), ms(withSession.p99)],
							['with a bot token', ms(withToken.p50), ms(withToken.p99)],
						])}\n`,
					)
					log(`${messages} messages a run, ${concurrency} customers at once; each makes conversation and message events (${received} deliveries in all)`)
					fs.mkdirSync(resultsDir, { recursive: true })
					fs.writeFileSync(
						path.join(resultsDir, 'integrations.json'),
						`${JSON.stringify({ messages, concurrency, results, reads: { withSession, withToken } }, null, '\t')}\n`,
					)
				} finally {
					await runner.stop()
				}
			},
			{ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOUND_CA_FILE: receiverCertificatePath },
		)
	} finally {
		receiver.server.closeAllConnections()
		receiver.server.close()
	}
}

await main()
