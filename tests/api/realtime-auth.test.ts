import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { type PresenceChannel } from 'pusher-js'
import { createUser } from './harness.ts'
import { nextEvent, startRealtimeServer, type RealtimeTestServer } from './realtime-support.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let server: RealtimeTestServer
let team: Team
beforeAll(async () => {
	// The browser module logs the refusals these tests cause on purpose.
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	server = await startRealtimeServer()
	team = await createTeam('Realtime auth')
})
afterAll(() => server.close())

const socketId = '1234.5678'

function authorise(auth: Record<string, string>, channelName: string, headers: Record<string, string> = {}) {
	return server.post('/v1/realtime/auth', { socket_id: socketId, channel_name: channelName }, { ...auth, ...headers })
}

function sign(text: string) {
	return crypto.createHmac('sha256', server.realtimeConfig.app.secret).update(text).digest('hex')
}

describe('POST /v1/realtime/auth', () => {
	test('a member gets their workspace channel signed for their socket', async () => {
		const channel = `private-workspace-${team.workspace.id}`
		for (const member of [team.owner, team.admin, team.agent]) {
			const { status, body } = await authorise(member.auth, channel)
			expect(status).toBe(200)
			expect(body).toEqual({ auth: `${server.realtimeConfig.app.key}:${sign(`${socketId}:${channel}`)}` })
		}
	})

	test('presence: the member’s id, name and role', async () => {
		const channel = `presence-workspace-${team.workspace.id}`
		const { status, body } = await authorise(team.admin.auth, channel)
		expect(status).toBe(200)
		const answer = body as { auth: string; channel_data: string }
		expect(JSON.parse(answer.channel_data)).toEqual({ user_id: team.admin.user.id, user_info: { name: team.admin.user.name, role: 'admin' } })
		expect(answer.auth).toBe(`${server.realtimeConfig.app.key}:${sign(`${socketId}:${channel}:${answer.channel_data}`)}`)
	})

	test('refused, in the caller’s language: non-members, other workspaces, conversations and names that are not ours', async () => {
		const refusals: Array<[Record<string, string>, string]> = [
			[team.outsider.auth, `private-workspace-${team.workspace.id}`],
			[team.outsider.auth, `presence-workspace-${team.workspace.id}`],
			[team.agent.auth, `private-workspace-${team.elsewhere.id}`],
			[team.agent.auth, `presence-workspace-${team.elsewhere.id}`],
			[team.agent.auth, `private-workspace-${crypto.randomUUID()}`],
			// A conversation that does not exist (members of a conversation's workspace may join: tests/api/conversations-realtime.test.ts).
			[team.agent.auth, `presence-conversation-${crypto.randomUUID()}`],
			[team.agent.auth, `private-workspace-${team.workspace.id.toUpperCase()}`],
			[team.agent.auth, `private-workspace-${team.workspace.id}-x`],
			[team.agent.auth, `private-encrypted-workspace-${team.workspace.id}`],
			[team.agent.auth, `private-cache-workspace-${team.workspace.id}`],
			[team.agent.auth, 'private-workspace-1'],
			[team.agent.auth, `#server-to-user-${team.agent.user.id}`],
			[team.agent.auth, 'workspace'],
			[team.agent.auth, 'presence-everyone'],
		]
		for (const [auth, channel] of refusals) {
			const { status, body } = await authorise(auth, channel)
			expect({ channel, status }).toEqual({ channel, status: 403 })
			expect(body).toMatchObject({ statusCode: 403, message: 'You may not listen to this channel.' })
		}
		expect((await authorise(team.outsider.auth, `private-workspace-${team.workspace.id}`, { 'Accept-Language': 'fr-FR' })).body).toMatchObject({
			message: 'Vous n’êtes pas autorisé à écouter ce canal.',
		})
		expect((await authorise(team.outsider.auth, `private-workspace-${team.workspace.id}`, { 'Accept-Language': 'ar-EG' })).body).toMatchObject({
			message: 'لا يُسمح لك بالاستماع إلى هذه القناة.',
		})
	})

	test('a removed member is refused from then on', async () => {
		const leaver = await createUser({ workspaceId: team.workspace.id, role: 'agent' })
		const channel = `private-workspace-${team.workspace.id}`
		expect((await authorise(leaver.auth, channel)).status).toBe(200)
		const left = await fetch(`${server.url}/v1/workspaces/${team.workspace.id}/leave`, { method: 'POST', headers: leaver.auth })
		expect(left.status).toBe(204)
		expect((await authorise(leaver.auth, channel)).status).toBe(403)
	})

	test('malformed requests are 400, a missing session 401', async () => {
		const channel = `private-workspace-${team.workspace.id}`
		for (const body of [
			{ socket_id: 'abc', channel_name: channel },
			{ socket_id: '1.2.3', channel_name: channel },
			{ channel_name: channel },
			{ socket_id: socketId },
		]) {
			expect((await server.post('/v1/realtime/auth', body, team.agent.auth)).status).toBe(400)
		}
		const anonymous = await authorise({}, channel)
		expect(anonymous).toMatchObject({ status: 401, body: { statusCode: 401 } })
		expect((await authorise({ Authorization: 'Bearer nope' }, channel)).status).toBe(401)
	})
})

describe('POST /v1/realtime/user-auth', () => {
	test('signs the socket in as the caller: their id and name', async () => {
		const { status, body } = await server.post('/v1/realtime/user-auth', { socket_id: socketId }, team.agent.auth)
		expect(status).toBe(200)
		const answer = body as { auth: string; user_data: string }
		expect(JSON.parse(answer.user_data)).toEqual({ id: team.agent.user.id, name: team.agent.user.name })
		expect(answer.auth).toBe(`${server.realtimeConfig.app.key}:${sign(`${socketId}::user::${answer.user_data}`)}`)
		const same = await server.post('/v1/realtime/user-auth', { socket_id: socketId, user_id: team.agent.user.id }, team.agent.auth)
		expect(same.status).toBe(200)
	})

	test('never as someone else', async () => {
		const other = await server.post('/v1/realtime/user-auth', { socket_id: socketId, user_id: team.owner.user.id }, team.agent.auth)
		expect(other).toMatchObject({ status: 403, body: { message: 'You can sign in to live updates only as yourself.' } })
		const french = await server.post(
			'/v1/realtime/user-auth',
			{ socket_id: socketId, user_id: team.owner.user.id },
			{ ...team.agent.auth, 'Accept-Language': 'fr' },
		)
		expect(french.body).toMatchObject({ message: 'Vous ne pouvez vous connecter aux mises à jour en direct qu’en votre propre nom.' })
		expect((await server.post('/v1/realtime/user-auth', { socket_id: socketId }, {})).status).toBe(401)
		expect((await server.post('/v1/realtime/user-auth', { socket_id: 'x' }, team.agent.auth)).status).toBe(400)
	})
})

describe('through a real connection', () => {
	test('members subscribe and see each other on the presence channel; an outsider is refused', async () => {
		const [owner, agent, outsider] = await Promise.all([server.connect(team.owner.auth), server.connect(team.agent.auth), server.connect(team.outsider.auth)])
		const presence = `presence-workspace-${team.workspace.id}`
		const ownerChannel = owner.pusher.subscribe(presence) as PresenceChannel
		await nextEvent(ownerChannel, 'pusher:subscription_succeeded')
		expect(ownerChannel.members.me).toEqual({ id: team.owner.user.id, info: { name: team.owner.user.name, role: 'owner' } })
		const added = nextEvent(ownerChannel, 'pusher:member_added')
		agent.pusher.subscribe(presence)
		expect(await added).toEqual({ id: team.agent.user.id, info: { name: team.agent.user.name, role: 'agent' } })

		const refused = nextEvent(outsider.pusher.subscribe(`private-workspace-${team.workspace.id}`), 'pusher:subscription_error')
		expect(await refused).toMatchObject({ type: 'AuthError', error: 'status 403' })
	})

	test('the user signs in as themselves and receives what is sent to them only', async () => {
		const [agent, owner] = await Promise.all([server.connect(team.agent.auth), server.connect(team.owner.auth)])
		await Promise.all([nextEvent(agent.pusher, 'pusher:signin_success', 5000), nextEvent(owner.pusher, 'pusher:signin_success', 5000)])
		expect(agent.pusher.user.user_data).toEqual({ id: team.agent.user.id, name: team.agent.user.name })
		await expect.poll(() => agent.pusher.user.serverToUserChannel?.subscribed).toBe(true)
		const ownerHeard: unknown[] = []
		owner.pusher.user.bind('notice', (data: unknown) => ownerHeard.push(data))
		const notice = nextEvent(agent.pusher.user, 'notice')
		await server.sdk.sendToUser(team.agent.user.id, 'notice', { text: 'hello' })
		expect(await notice).toEqual({ text: 'hello' })
		expect(ownerHeard).toEqual([])
	})
})
