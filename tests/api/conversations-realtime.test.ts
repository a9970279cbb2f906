import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { pino } from 'pino'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { createRealtime } from '#api/realtime/publisher.ts'
import { testDb } from './harness.ts'
import { conversationsPath, createLinkChannel } from './conversations-fixtures.ts'
import { nextEvent, recordEvents, startRealtimeServer, type RealtimeTestServer } from './realtime-support.ts'
import { createTeam } from './workspaces-fixtures.ts'

let server: RealtimeTestServer
beforeAll(async () => {
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	server = await startRealtimeServer()
})
afterAll(() => server.close())

async function call(method: string, path: string, auth: Record<string, string>, body?: unknown) {
	const { status, body: answer } = await server.request(method, path, auth, body)
	return { status, body: answer as { id: string } }
}

describe('inbox events', () => {
	test('the workspace channel carries what changed, numbered one by one: the list row and where it stood, the message; the visitor hears the ids of outgoing text only, never a note nor an activity line', async () => {
		const team = await createTeam('Inbox events')
		const channel = await createLinkChannel(team.workspace.id)
		const workspaceId = team.workspace.id
		const agent = await server.connect(team.agent.auth)
		const workspace = await recordEvents(agent, `private-workspace-${workspaceId}`)

		const { conversation } = await receiveMessage(testDb(), server.realtime, { channel, from: { externalId: 'live', name: 'Live visitor' }, body: 'Hello?' })
		const ids = { workspaceId, conversationId: conversation.id, number: conversation.number }
		expect(await workspace.waitFor('conversation.created')).toEqual({
			...ids,
			seq: 1,
			previous: null,
			conversation: expect.objectContaining({
				id: conversation.id,
				number: 1,
				status: 'open',
				contact: expect.objectContaining({ name: 'Live visitor' }),
				lastMessage: { excerpt: 'Hello?', direction: 'incoming', sender: null },
			}),
		})
		expect(await workspace.waitFor('message.created')).toEqual({
			...ids,
			seq: 2,
			messageId: expect.stringMatching(/^\d+$/),
			message: expect.objectContaining({ body: 'Hello?', direction: 'incoming', kind: 'text', sender: null }),
		})

		// A member listens to what the visitor hears, as the visitor's own page will.
		const visitor = await recordEvents(agent, `private-visitor-${conversation.id}`)
		const base = conversationsPath(workspaceId, `/${conversation.number}`)
		const note = await call('POST', `${base}/messages`, team.agent.auth, { kind: 'note', body: 'Internal: VIP customer' })
		expect(note.status).toBe(201)
		expect(await workspace.waitFor('message.created', (data) => data.messageId === note.body.id)).toMatchObject({
			message: { kind: 'note', body: 'Internal: VIP customer', sender: { id: team.agent.user.id } },
		})
		expect((await call('PATCH', base, team.agent.auth, { status: 'pending' })).status).toBe(200)
		expect(await workspace.waitFor('conversation.updated')).toMatchObject({
			previous: { status: 'open', assigneeId: null },
			conversation: { status: 'pending' },
		})
		const reply = await call('POST', `${base}/messages`, team.agent.auth, { kind: 'text', body: 'We are on it' })
		expect(reply.status).toBe(201)
		expect(await workspace.waitFor('message.created', (data) => data.messageId === reply.body.id)).toMatchObject({
			...ids,
			messageId: reply.body.id,
			message: { body: 'We are on it', direction: 'outgoing' },
		})
		expect(await visitor.waitFor('message.created')).toEqual({ ...ids, messageId: reply.body.id })

		await server.realtime.flush()
		expect(visitor.events).toEqual([{ event: 'message.created', data: { ...ids, messageId: reply.body.id } }])
		expect(workspace.events.map((entry) => entry.event)).toEqual([
			'conversation.created',
			'message.created',
			'message.created',
			'conversation.updated',
			'message.created',
			'message.created',
			'conversation.updated',
		])
		// Numbered without a gap, each number once; the row is every member's, without anyone's unread count.
		expect(workspace.events.map((entry) => entry.data.seq).sort((a, b) => Number(a) - Number(b))).toEqual([1, 2, 3, 4, 5, 6, 7])
		expect(
			workspace.events.filter((entry) => entry.event.startsWith('conversation.')).every((entry) => !('unreadCount' in (entry.data.conversation as object))),
		).toBe(true)
		// A refused change announces nothing.
		expect((await call('PATCH', base, team.agent.auth, { status: 'closed' })).status).toBe(400)
		await server.realtime.flush()
		expect(workspace.events).toHaveLength(7)
	})

	test("each workspace numbers its own events, in PostgreSQL: two processes' publishers share one sequence; an event too big for Pusher keeps its ids and says it was cut", async () => {
		const [first, second] = [await createTeam('Numbered one'), await createTeam('Numbered two')]
		const channel = await createLinkChannel(first.workspace.id)
		const listener = await server.connect(first.agent.auth)
		const events = await recordEvents(listener, `private-workspace-${first.workspace.id}`)
		const other = await recordEvents(await server.connect(second.agent.auth), `private-workspace-${second.workspace.id}`)
		// A second app process: its own publisher, the same database and realtime server.
		const elsewhere = createRealtime({ target: server.target, logger: pino({ level: 'silent' }) })
		await Promise.all(
			Array.from({ length: 10 }, (_, index) =>
				receiveMessage(testDb(), index % 2 ? elsewhere : server.realtime, {
					channel,
					from: { externalId: `v${index}`, name: `Visitor ${index}` },
					body: `Hello ${index}`,
				}),
			),
		)
		await Promise.all([server.realtime.flush(), elsewhere.flush()])
		await expect.poll(() => events.events.length).toBe(20)
		expect(events.events.map((entry) => entry.data.seq).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, index) => index + 1))
		expect(other.events).toEqual([])

		// 3 000 emoji are 12 000 bytes, more than Pusher's 10 kB an event: the page reloads for it.
		const long = '😀'.repeat(3000)
		const { message } = await receiveMessage(testDb(), server.realtime, { channel, from: { externalId: 'long', name: 'Long' }, body: long })
		const cut = await events.waitFor('message.created', (data) => data.messageId === String(message.id))
		expect(cut).toEqual({
			workspaceId: first.workspace.id,
			conversationId: message.conversationId,
			number: expect.any(Number),
			messageId: String(message.id),
			seq: expect.any(Number),
			cut: true,
		})
	})

	test('the assignee and the members mentioned in a note are notified on their own user channel', async () => {
		const team = await createTeam('Notified')
		const channel = await createLinkChannel(team.workspace.id)
		const { conversation } = await receiveMessage(testDb(), server.realtime, { channel, from: { externalId: 'n', name: 'Nadia' }, body: 'Help' })
		const assignee = await server.connect(team.otherAgent.auth)
		await expect.poll(() => assignee.pusher.user.serverToUserChannel?.subscribed).toBe(true)
		const base = conversationsPath(team.workspace.id, `/${conversation.number}`)

		const assigned = nextEvent(assignee.pusher.user, 'notification')
		await call('PATCH', base, team.agent.auth, { assigneeId: team.otherAgent.user.id })
		expect(await assigned).toMatchObject({
			workspaceId: team.workspace.id,
			unread: 1,
			notification: {
				kind: 'assigned',
				conversationNumber: conversation.number,
				values: { number: conversation.number, contact: 'Nadia', actor: team.agent.user.name },
				readAt: null,
			},
		})

		const mentioned = nextEvent(assignee.pusher.user, 'notification')
		await call('POST', `${base}/messages`, team.agent.auth, { kind: 'note', body: `@${team.otherAgent.user.name} can you look?` })
		expect(await mentioned).toMatchObject({
			workspaceId: team.workspace.id,
			unread: 2,
			notification: {
				kind: 'mentioned',
				conversationNumber: conversation.number,
				values: { actor: team.agent.user.name, excerpt: `@${team.otherAgent.user.name} can you look?` },
			},
		})
	})

	test('members may join a conversation’s presence channel and listen to its visitor channel; anyone else is refused', async () => {
		const team = await createTeam('Conversation channels')
		const channel = await createLinkChannel(team.workspace.id)
		const { conversation } = await receiveMessage(testDb(), server.realtime, { channel, from: { externalId: 'c', name: 'C' }, body: 'Hi' })
		for (const name of [`presence-conversation-${conversation.id}`, `private-visitor-${conversation.id}`]) {
			const member = await server.post('/v1/realtime/auth', { socket_id: '1.2', channel_name: name }, team.agent.auth)
			expect(member.status, name).toBe(200)
			// A member of another workspace, and nobody at all.
			const outsider = await server.post('/v1/realtime/auth', { socket_id: '1.2', channel_name: name }, team.outsider.auth)
			expect(outsider.status, name).toBe(403)
			expect(outsider.body).toMatchObject({ message: 'You may not listen to this channel.' })
			expect((await server.post('/v1/realtime/auth', { socket_id: '1.2', channel_name: name }, {})).status, name).toBe(401)
		}
		// The presence member is the caller, named as the others will show them (no role: the workspace's presence has it).
		const presence = `presence-conversation-${conversation.id}`
		const signed = (await server.post('/v1/realtime/auth', { socket_id: '1.2', channel_name: presence }, team.admin.auth)).body as {
			auth: string
			channel_data: string
		}
		expect(JSON.parse(signed.channel_data)).toEqual({ user_id: team.admin.user.id, user_info: { name: team.admin.user.name } })
		expect(signed.auth).toBe(server.sdk.authorizeChannel('1.2', presence, JSON.parse(signed.channel_data) as { user_id: string }).auth)
		for (const name of [`private-visitor-${crypto.randomUUID()}`, `presence-conversation-${crypto.randomUUID()}`, `private-conversation-${conversation.id}`]) {
			const refused = await server.post('/v1/realtime/auth', { socket_id: '1.2', channel_name: name }, team.agent.auth)
			expect(refused.status, name).toBe(403)
		}
	})
})
