import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import https from 'node:https'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webpush, { type RequestDetails, WebPushError } from 'web-push'
import { pushCertificatePath, type PushFake, startPushFake } from './push.ts'

const subject = 'mailto:support@example.com'
const vapid = webpush.generateVAPIDKeys()
const vapidDetails = { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey }
// In process the fake's certificate is trusted through the agent (a spawned server: NODE_EXTRA_CA_CERTS).
const agent = new https.Agent({ ca: fs.readFileSync(pushCertificatePath) })

let fake: PushFake
beforeAll(async () => {
	fake = await startPushFake()
})
afterAll(async () => {
	agent.destroy()
	await fake.close()
})

/** The request web-push would send, for a test to spoil one part of it. */
const details = (subscription: webpush.PushSubscription, payload = 'hello') =>
	webpush.generateRequestDetails(subscription, payload, { vapidDetails, TTL: 60 }) as RequestDetails & { body: Buffer }

function post(request: { endpoint: string; headers: Record<string, string | number>; body: Buffer }) {
	return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
		const req = https.request(request.endpoint, { method: 'POST', headers: request.headers, agent }, (res) => {
			const chunks: Buffer[] = []
			res.on('data', (chunk: Buffer) => chunks.push(chunk))
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
		})
		req.on('error', reject)
		req.end(request.body)
	})
}

/** An ES256 JWT signed with the VAPID private key, for claims web-push itself refuses to sign. */
function signJwt(claims: Record<string, unknown>) {
	const publicKey = Buffer.from(vapid.publicKey, 'base64url')
	const key = crypto.createPrivateKey({
		format: 'jwk',
		key: { kty: 'EC', crv: 'P-256', d: vapid.privateKey, x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33).toString('base64url') },
	})
	const unsigned = `${Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
	return `${unsigned}.${crypto.sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

const now = () => Math.floor(Date.now() / 1000)

describe('the push service fake', () => {
	it('accepts what web-push sends and decrypts the exact payload', async () => {
		const subscription = fake.subscribe()
		expect(subscription.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/push\/[\w-]+$/)
		const payload = JSON.stringify({ title: 'Nouveau message', body: 'مرحبا — ça va ?' })
		const sent = await webpush.sendNotification(subscription, payload, { vapidDetails, TTL: 120, urgency: 'high', topic: 'conversation-7', agent })
		expect(sent.statusCode).toBe(201)
		const push = await fake.waitForPush((entry) => entry.subscriptionId === subscription.endpoint.split('/').pop())
		expect(push).toEqual({ subscriptionId: expect.any(String), payload, ttl: 120, urgency: 'high', topic: 'conversation-7', vapidSubject: subject })
	})

	it('refuses what a push service refuses, and records none of it', async () => {
		const subscription = fake.subscribe()
		const other = webpush.generateVAPIDKeys()
		const origin = new URL(subscription.endpoint).origin
		const authorization = (jwt: string) => `vapid t=${jwt}, k=${vapid.publicKey}`
		const vapidHeader = (audience: string, expiration?: number) =>
			webpush.getVapidHeaders(audience, subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', expiration).Authorization
		const cases: Array<[string, (request: ReturnType<typeof details>) => void, number]> = [
			['no authorization', (request) => delete request.headers.Authorization, 401],
			[
				'a signature of another key',
				(request) => (request.headers.Authorization = String(request.headers.Authorization).replace(vapid.publicKey, other.publicKey)),
				403,
			],
			['another audience', (request) => (request.headers.Authorization = vapidHeader('https://push.example.com')), 403],
			['an expired token', (request) => (request.headers.Authorization = vapidHeader(origin, now() - 60)), 403],
			[
				'a token for more than 24 hours',
				(request) => (request.headers.Authorization = authorization(signJwt({ aud: origin, exp: now() + 25 * 3600, sub: subject }))),
				403,
			],
			[
				'a subject that is no contact',
				(request) => (request.headers.Authorization = authorization(signJwt({ aud: origin, exp: now() + 3600, sub: 'support' }))),
				403,
			],
			['no TTL', (request) => delete request.headers.TTL, 400],
			['a negative TTL', (request) => (request.headers.TTL = '-1'), 400],
			['another content encoding', (request) => (request.headers['Content-Encoding'] = 'aesgcm'), 415],
			['a payload for other keys', (request) => (request.body = details(fake.subscribe()).body), 400],
			['a spoiled ciphertext', (request) => (request.body = Buffer.concat([request.body.subarray(0, -1), Buffer.from([request.body.at(-1)! ^ 1])])), 400],
		]
		for (const [what, spoil, status] of cases) {
			const request = details(subscription)
			spoil(request)
			const answer = await post(request)
			expect({ what, status: answer.status }).toEqual({ what, status })
			expect(JSON.parse(answer.body)).toMatchObject({ code: status, message: expect.any(String) })
		}
		const tooBig = await post(details(subscription, 'x'.repeat(4000)))
		expect(tooBig.status).toBe(413)
		expect(fake.pushes.filter((push) => subscription.endpoint.endsWith(push.subscriptionId))).toEqual([])
		// The unspoiled request goes through: the refusals above were each for its own reason.
		expect((await post(details(subscription))).status).toBe(201)
	})

	it('is trusted by a process started with NODE_EXTRA_CA_CERTS', async () => {
		const { endpoint } = fake.subscribe()
		const script = `fetch(${JSON.stringify(endpoint)}, { method: 'POST' }).then((response) => process.stdout.write(String(response.status)))`
		const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: pushCertificatePath } })
		expect(stdout.trim()).toBe('401')
	})

	it('answers 410 for a gone subscription and 404 for an unknown one, every time', async () => {
		const gone = fake.subscribe()
		const unknown = fake.subscribe()
		fake.gone(gone.endpoint.split('/').pop()!)
		fake.notFound(unknown.endpoint.split('/').pop()!)
		for (const [subscription, status] of [
			[gone, 410],
			[gone, 410],
			[unknown, 404],
			[{ ...unknown, endpoint: `${fake.url}/push/never-subscribed` }, 404],
		] as const) {
			const error = await webpush.sendNotification(subscription, 'hello', { vapidDetails, agent }).catch((caught: unknown) => caught)
			expect(error).toBeInstanceOf(WebPushError)
			expect((error as WebPushError).statusCode).toBe(status)
		}
	})

	it('answers 429 with Retry-After while throttled, then accepts', async () => {
		const subscription = fake.subscribe()
		fake.throttle(subscription.endpoint.split('/').pop()!, 2, 30)
		for (let attempt = 0; attempt < 2; attempt++) {
			const error = (await webpush.sendNotification(subscription, 'again', { vapidDetails, agent }).catch((caught: unknown) => caught)) as WebPushError
			expect(error.statusCode).toBe(429)
			expect(error.headers['retry-after']).toBe('30')
		}
		expect((await webpush.sendNotification(subscription, 'again', { vapidDetails, agent })).statusCode).toBe(201)
		expect((await fake.waitForPush((push) => subscription.endpoint.endsWith(push.subscriptionId))).payload).toBe('again')
	})
})
