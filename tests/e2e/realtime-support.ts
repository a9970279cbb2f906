import fs from 'node:fs'
import path from 'node:path'
import { type APIRequestContext, type Page } from '@playwright/test'
import PusherServer from 'pusher'

/** The `pusher` SDK as the app itself: the embedded server's credentials, generated into the test server's DATA_DIR. */
export function realtimeSdk(baseURL: string): PusherServer {
	const app = JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'realtime-app.json'), 'utf8')) as { id: string; key: string; secret: string }
	const url = new URL(baseURL)
	return new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: url.hostname, port: url.port, useTLS: false })
}

/** How many sockets the server counts on `channel` (the embedded server always reports it). */
export async function subscriptionCount(sdk: PusherServer, channel: string): Promise<number> {
	const response = await sdk.get({ path: `/channels/${channel}`, params: { info: 'subscription_count' } })
	return ((await response.json()) as { subscription_count?: number }).subscription_count ?? 0
}

/** The ids of the users on a presence channel. */
export async function presentUsers(sdk: PusherServer, channel: string): Promise<string[]> {
	const response = await sdk.get({ path: `/channels/${channel}/users` })
	return ((await response.json()) as { users: Array<{ id: string }> }).users.map((user) => user.id).sort()
}

/** An invitation by the owner, accepted by the member, both through the API. */
export async function inviteAndAccept(request: APIRequestContext, workspaceId: string, ownerToken: string, memberToken: string) {
	const invited = await request.post(`/v1/workspaces/${workspaceId}/invitations`, {
		data: { method: 'link', role: 'agent' },
		headers: { Authorization: `Bearer ${ownerToken}` },
	})
	if (!invited.ok()) throw new Error(`invitation failed: ${invited.status()} ${await invited.text()}`)
	const { code } = (await invited.json()) as { code: string }
	const accepted = await request.post('/v1/workspaces/invitations/accept', {
		data: { code, method: 'link' },
		headers: { Authorization: `Bearer ${memberToken}` },
	})
	if (!accepted.ok()) throw new Error(`accepting failed: ${accepted.status()} ${await accepted.text()}`)
}

/** Marks the document, so that a test can tell a live update from a reload (which would lose the mark). */
export async function markDocument(page: Page) {
	await page.evaluate(() => {
		document.body.dataset.sameDocument = 'yes'
	})
}

export async function isSameDocument(page: Page): Promise<boolean> {
	return page.evaluate(() => document.body.dataset.sameDocument === 'yes')
}

/**
 * Chrome's line for a frame sent on a socket the server is closing: a role change ends the member's
 * connections on purpose (they come back authorised afresh), and pusher-js may be sending its
 * unsubscribe in that moment. It reconnects; what the page shows is what the tests check.
 */
const droppedFrame = /^WebSocket is already in CLOSING or CLOSED state\.$/

/** Console errors and CSP reports of a page that is not the fixture's own (a second browser context). */
export function watchConsole(page: Page): string[] {
	const problems: string[] = []
	page.on('console', (message) => {
		if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()) && !droppedFrame.test(message.text())) problems.push(message.text())
	})
	page.on('pageerror', (error) => problems.push(error.message))
	return problems
}
