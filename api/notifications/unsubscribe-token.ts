import crypto from 'node:crypto'
import { z } from 'zod'
import { notificationKinds, type NotificationKind } from '#common/notifications.ts'

/** What a notification mail's unsubscribe link turns off: e-mails of these kinds, for this member of this workspace. */
export type Unsubscribe = { userId: string; workspaceId: string; kinds: NotificationKind[] }

// Bound to its use: a MAC of the same secret made for something else never opens this.
const purpose = 'crm notification e-mails unsubscribe'

const signed = z.tuple([z.string().uuid(), z.string().uuid(), z.string()]).transform(([userId, workspaceId, kinds]) => ({ userId, workspaceId, kinds }))
const kindList = z.array(z.enum(notificationKinds)).min(1)

function mac(secret: string, payload: string): string {
	return crypto.createHmac('sha256', secret).update(`${purpose}\n${payload}`).digest('base64url')
}

/**
 * A link's token: the member, the workspace and the kinds, readable, then their HMAC with
 * SESSION_SECRET. Nothing is stored and it does not expire: it can only ever turn those e-mails
 * off, and nobody without the secret can make one for someone else.
 */
export function unsubscribeToken(secret: string, what: Unsubscribe): string {
	const payload = Buffer.from(`${what.userId}:${what.workspaceId}:${[...new Set(what.kinds)].join(',')}`).toString('base64url')
	return `${payload}.${mac(secret, payload)}`
}

/** What a token says, when it is one we signed; undefined for anything else. */
export function readUnsubscribeToken(secret: string, token: string): Unsubscribe | undefined {
	const [payload, signature, ...rest] = token.split('.')
	if (!payload || !signature || rest.length > 0) return undefined
	const expected = Buffer.from(mac(secret, payload))
	const given = Buffer.from(signature)
	if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return undefined
	const parts = signed.safeParse(Buffer.from(payload, 'base64url').toString('utf8').split(':'))
	if (!parts.success) return undefined
	const kinds = kindList.safeParse(parts.data.kinds.split(','))
	return kinds.success ? { userId: parts.data.userId, workspaceId: parts.data.workspaceId, kinds: kinds.data } : undefined
}
