import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, type APIRequestContext, type Locator } from '@playwright/test'
import PusherClient, { type Channel } from 'pusher-js'
import { createWorkspace, registerUser } from './accounts.ts'
import { realtimeSdk } from './realtime-support.ts'

type Conversation = { id: string; number: number; contact: { id: string; name: string }; lastMessage: { excerpt: string } | null }

/** A visitor of the link page writes, through the API as the page's form would (a visitor token of their own). */
export async function visitorWrites(request: APIRequestContext, slug: string, body: string) {
	const response = await request.post(`/v1/link/${slug}/messages`, {
		data: { body },
		headers: { 'X-Visitor-Token': crypto.randomBytes(32).toString('base64url') },
	})
	if (!response.ok()) throw new Error(`visitor failed: ${response.status()} ${await response.text()}`)
}

/** An owner with a workspace and a link channel, all through the API. */
export async function linkChannelOf(
	request: APIRequestContext,
	options: { business?: string; settings?: Record<string, unknown>; changes?: Record<string, unknown> } = {},
) {
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, options.business ?? 'Acme Support')
	const slug = `acme-${Math.random().toString(36).slice(2, 10)}`
	const headers = { Authorization: `Bearer ${owner.token}` }
	const created = await request.post(`/v1/workspaces/${workspace.id}/channels`, {
		data: { kind: 'link', name: 'Website', slug, settings: options.settings ?? {} },
		headers,
	})
	if (!created.ok()) throw new Error(`channel failed: ${created.status()} ${await created.text()}`)
	const channelId = ((await created.json()) as { id: string }).id
	// What creating does not take (its hours, its auto-replies), set by a change.
	if (options.changes) {
		const changed = await request.patch(`/v1/workspaces/${workspace.id}/channels/${channelId}`, { data: options.changes, headers })
		if (!changed.ok()) throw new Error(`channel change failed: ${changed.status()} ${await changed.text()}`)
	}

	const conversationsPath = `/v1/workspaces/${workspace.id}/conversations`
	return {
		owner,
		workspace,
		slug,
		channelId,
		/** The workspace's conversations, as the inbox reads them (helper A's API). */
		async conversations(): Promise<Conversation[]> {
			const response = await request.get(`${conversationsPath}?status=all`, { headers })
			if (!response.ok()) throw new Error(`list failed: ${response.status()} ${await response.text()}`)
			return ((await response.json()) as { conversations: Conversation[] }).conversations
		},
		/** What an agent writes in the inbox: a reply (`text`) or a private note. */
		async write(number: number, kind: 'text' | 'note', body: string) {
			const response = await request.post(`${conversationsPath}/${number}/messages`, { data: { kind, body }, headers })
			if (!response.ok()) throw new Error(`${kind} failed: ${response.status()} ${await response.text()}`)
		},
		/** A reply with a file, posted as the composer's form is (multipart). */
		async attach(number: number, body: string, file: { name: string; mimeType: string; buffer: Buffer }) {
			const response = await request.post(`${conversationsPath}/${number}/messages`, { multipart: { kind: 'text', body, file }, headers })
			if (!response.ok()) throw new Error(`attachment failed: ${response.status()} ${await response.text()}`)
		},
	}
}

/** A member's socket on the visitor's channel, signed with the app's own credentials as the API would sign it for a member. */
export async function agentOnVisitorChannel(baseURL: string, conversationId: string): Promise<{ channel: Channel; close: () => void }> {
	const sdk = realtimeSdk(baseURL)
	const url = new URL(baseURL)
	const { key } = JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'realtime-app.json'), 'utf8')) as { key: string }
	const pusher = new PusherClient(key, {
		cluster: 'local',
		wsHost: url.hostname,
		wsPort: Number(url.port),
		forceTLS: false,
		enabledTransports: ['ws'],
		channelAuthorization: {
			endpoint: '',
			transport: 'ajax',
			customHandler: ({ socketId, channelName }, callback) => callback(null, sdk.authorizeChannel(socketId, channelName)),
		},
	})
	const channel = pusher.subscribe(`private-visitor-${conversationId}`)
	await new Promise<void>((resolve, reject) => {
		channel.bind('pusher:subscription_succeeded', () => resolve())
		channel.bind('pusher:subscription_error', (error: unknown) => reject(new Error(`subscription refused: ${JSON.stringify(error)}`)))
	})
	return { channel, close: () => pusher.disconnect() }
}

/**
 * The agent types until `shown` (the visitor page's typing line) appears: a client event reaches only
 * those subscribed when it is sent, and the visitor's page may still be subscribing (after a load).
 */
export async function agentTypesUntilShown(agent: { channel: Channel }, shown: Locator) {
	await expect(async () => {
		agent.channel.trigger('client-typing', { typing: true, from: 'agent' })
		await expect(shown).toBeVisible({ timeout: 2_000 })
	}).toPass({ timeout: 15_000 })
}
