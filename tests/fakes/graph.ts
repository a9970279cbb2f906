import crypto from 'node:crypto'
import { type Answer, type Received } from './fake-server.ts'

/** What Meta's Graph fakes (tests/fakes/{whatsapp,meta}.ts) share: its error bodies and its signed webhooks. */

/** Graph's error body: `{ error: { message, type, code, error_subcode, fbtrace_id } }`. */
export const graphError = (status: number, code: number, message: string, type = 'OAuthException', subcode?: number): Answer => ({
	status,
	body: { error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: `A${crypto.randomBytes(8).toString('hex')}` } },
})

/** Graph's answer for an object it does not have (or that the token may not see). */
export const graphNotFound = (request: Received): Answer =>
	graphError(
		400,
		100,
		`Unsupported ${request.method.toLowerCase()} request. Object with ID '${request.path.split('/')[2] ?? ''}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
		'GraphMethodException',
		33,
	)

/** Posts a webhook as Meta does: `X-Hub-Signature-256: sha256={HMAC-SHA256 of the body with the app secret}` (or a forged signature). */
export function postSignedWebhook(url: string, appSecret: string, payload: unknown, options: { signature?: string } = {}): Promise<Response> {
	const body = JSON.stringify(payload)
	const signature = options.signature ?? `sha256=${crypto.createHmac('sha256', appSecret).update(body).digest('hex')}`
	return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature }, body })
}
