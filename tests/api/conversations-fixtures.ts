import crypto from 'node:crypto'
import { expect } from 'vitest'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { type ConversationJson, type MessageJson } from '#api/conversations/json.ts'
import { type Channel } from '#api/db/schema.ts'
import { silentRealtime, type Realtime } from '#api/realtime/publisher.ts'
import { testDb, type TestApi } from './harness.ts'

export type { ConversationJson, MessageJson }

export const conversationsPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/conversations${rest}`

export type Published = { channel: string; event: string; data: Record<string, unknown> }

/** Records what would be published, to check events without a realtime server. */
export function recordingRealtime(published: Published[] = []): Realtime {
	const record = async (channel: string, event: string, data: Record<string, unknown>) => void published.push({ channel, event, data })
	const publishBatch = async (events: Published[]) => {
		for (const { channel, event, data } of events) await record(channel, event, data)
	}
	const track = async (work: Promise<unknown>) => void (await work)
	// Nothing else is sent; no server is asked who is connected (the presence reconciliation then changes nothing).
	return { ...silentRealtime, publish: record, publishBatch, track, notifyUser: (userId, event, data) => record(`#server-to-user-${userId}`, event, data) }
}

export async function createLinkChannel(workspaceId: string, name = 'Website'): Promise<Channel> {
	return testDb()
		.insertInto('channels')
		.values({ workspaceId, kind: 'link', name, slug: `chat-${crypto.randomBytes(5).toString('hex')}` })
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** A customer's message on the channel, as the link page hands it over: their conversation, created or found. */
export async function customerWrites(
	channel: Channel,
	visitor: string,
	body: string,
	options: { name?: string; externalId?: string; realtime?: Realtime } = {},
) {
	return receiveMessage(testDb(), options.realtime ?? recordingRealtime(), {
		channel,
		from: { externalId: visitor, name: options.name ?? `Visitor ${visitor}` },
		externalId: options.externalId ?? null,
		body,
	})
}

export async function getConversation(api: TestApi, auth: Record<string, string>, workspaceId: string, number: number): Promise<ConversationJson> {
	const response = await api.request('GET', conversationsPath(workspaceId, `/${number}`), { headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as ConversationJson
}

export async function postMessage(
	api: TestApi,
	auth: Record<string, string>,
	workspaceId: string,
	number: number,
	body: { kind: 'text' | 'note'; body: string },
): Promise<MessageJson> {
	const response = await api.request('POST', conversationsPath(workspaceId, `/${number}/messages`), { body, headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as MessageJson
}
