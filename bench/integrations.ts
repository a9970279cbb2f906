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
 *
 *   npm run bench:integrations -- [--messages 300] [--concurrency 4]
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
import { type DB } from '#api/db/database.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner } from '#api/jobs/queue.ts'
import { createSubscription } from '#api/outgoing-webhooks/subscriptions.ts'
import { webhookEventTypes } from '#common/webhooks.ts'
import { receiverCertificatePath } from '../tests/fakes/webhook-receiver.ts'
import { quiet, withInProcessApi } from './in-process.ts'
import { log, numberOption, percentile, resultsDir, table } from './server.ts'

const { values } = parseArgs({ options: { messages: { type: 'string', default: '300' }, concurrency: { type: 'string', default: '4' } } })
const messages = numberOption('messages', values.messages, 10, 10_000)
const concurrency = numberOption('concurrency', values.concurrency, 1, 64)

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

async function seedWorkspace(db: DB, name: string) {
	const workspace = await db
		.insertInto('workspaces')
		.values({ name, slug: `bench-${crypto.randomBytes(4).toString('hex')}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	const channel = await db
		.insertInto('channels')
		.values({ workspaceId: workspace.id, kind: 'link', name: 'Site', slug: `bench-${crypto.randomBytes(5).toString('hex')}` })
		.returning(['slug'])
		.executeTakeFirstOrThrow()
	return { workspaceId: workspace.id, slug: channel.slug! }
}

async function measure(url: string, slug: string, net: number, delivered: boolean) {
	const stored: number[] = []
	const sent = new Map<string, number>()
	let next = 0
	async function customer() {
		while (next < messages) {
			const index = next++
			const started = performance.now()
			const response = await fetch(`${url}/v1/link/${slug}/messages`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Visitor-Token': crypto.randomBytes(24).toString('base64url'),
					// Each customer from an address of their own: the link's per-address limit is not what is measured.
					'X-Forwarded-For': `10.${net}.${index >> 8}.${index & 255}`,
				},
				body: JSON.stringify({ body: `Where is my order ${index}?`, name: `Customer ${index}` }),
			})
			const answer = (await response.json()) as { message?: { id: string } }
			if (!response.ok) throw new Error(`POST answered ${response.status}: ${JSON.stringify(answer)}`)
			stored.push(performance.now() - started)
			sent.set(String(answer.message?.id), started)
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

async function main() {
	let secret = ''
	const receiver = await startReceiver(() => secret)
	try {
		await withInProcessApi(
			'integrations',
			async ({ db, databaseUrl, config, url }) => {
				const runner = await startJobRunner({ db, databaseUrl, handlers: jobHandlers, log: quiet, config, concurrency: 4 })
				try {
					const plain = await seedWorkspace(db, 'No subscription')
					const subscribed = await seedWorkspace(db, 'Subscribed to every event')
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
					log(`${messages} messages a run, ${concurrency} customers at once; each makes conversation and message events (${received} deliveries in all)`)
					fs.mkdirSync(resultsDir, { recursive: true })
					fs.writeFileSync(path.join(resultsDir, 'integrations.json'), `${JSON.stringify({ messages, concurrency, results }, null, '\t')}\n`)
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
