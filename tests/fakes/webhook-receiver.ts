import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Webhook } from 'standardwebhooks'
import { startFakeServer, type FakeServer, type Received } from './fake-server.ts'

const certificates = path.join(path.dirname(fileURLToPath(import.meta.url)), 'certs')
/** The receiver's self-signed certificate (127.0.0.1 and localhost): OUTBOUND_CA_FILE trusts it. */
export const receiverCertificatePath = path.join(certificates, 'cert.pem')

/** A request the receiver took, with what `Webhook.verify` made of it under the secret its path was given. */
export type ReceivedWebhook = Received & { verified: boolean; event: { type: string; timestamp: string; data: Record<string, unknown> } | null }

export type WebhookReceiver = FakeServer & {
	/** `https://127.0.0.1:{port}/hooks/{name}`, whose requests are verified with `secret` from now on. */
	endpoint: (name: string, secret?: string) => string
	/** Sets (or changes) the secret a path is verified with. */
	trust: (name: string, secret: string) => void
	/** The requests to `/hooks/{name}` so far, oldest first. */
	to: (name: string) => ReceivedWebhook[]
}

/**
 * A webhook receiver as an integration would write one, over HTTPS on loopback: every request is
 * checked with the `standardwebhooks` package's `Webhook.verify` (signature, and a timestamp within
 * five minutes) and answered 204 when it verifies, 401 when it does not; `failNext` makes it fail.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
	const secrets = new Map<string, string>()
	const all: ReceivedWebhook[] = []
	const nameOf = (request: Received) => request.path.replace(/^\/hooks\//, '')
	const verify = (request: Received): ReceivedWebhook => {
		const secret = secrets.get(nameOf(request))
		let event: ReceivedWebhook['event'] = null
		try {
			if (!secret) throw new Error('no secret')
			event = new Webhook(secret).verify(request.rawBody, request.headers as Record<string, string>) as ReceivedWebhook['event']
		} catch {
			event = null
		}
		return Object.assign(request, { verified: event !== null, event })
	}
	const server = await startFakeServer(
		(request) => {
			const checked = verify(request)
			all.push(checked)
			return checked.verified ? { status: 204, body: null } : { status: 401, body: { error: 'bad signature' } }
		},
		() => ({ status: 404, body: { error: 'not found' } }),
		0,
		{ cert: fs.readFileSync(receiverCertificatePath), key: fs.readFileSync(path.join(certificates, 'key.pem')) },
	)
	return {
		...server,
		endpoint(name, secret) {
			if (secret) secrets.set(name, secret)
			return `${server.url}/hooks/${name}`
		},
		trust: (name, secret) => void secrets.set(name, secret),
		to: (name) =>
			server.received
				.filter((request) => nameOf(request) === name)
				.map((request) => (all.includes(request as ReceivedWebhook) ? (request as ReceivedWebhook) : verify(request))),
	}
}
