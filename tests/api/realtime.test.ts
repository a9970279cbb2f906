import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { pino } from 'pino'
import { createRealtime } from '#api/realtime/publisher.ts'
import { createUser } from './harness.ts'
import { nextEvent, recordEvents, startRealtimeServer, type RealtimeTestServer } from './realtime-support.ts'
import { createTeam } from './workspaces-fixtures.ts'

let server: RealtimeTestServer
beforeAll(async () => {
	// The browser module logs refusals and dropped connections, which these tests cause on purpose.
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	server = await startRealtimeServer()
})
afterAll(() => server.close())

/** The status of a request to the server. */
async function call(method: string, path: string, auth: Record<string, string>, body?: unknown) {
	return (await server.request(method, path, auth, body)).status
}

/** A team whose agent listens to the workspace channel through the browser module. */
async function listeningTeam(name: string) {
	const team = await createTeam(name)
	const agent = await server.connect(team.agent.auth)
	const channel = `private-workspace-${team.workspace.id}`
	const recorder = await recordEvents(agent, channel)
	return { team, agent, channel, recorder }
}

describe('events on private-workspace-{id}', () => {
	test('workspace.updated after a change, nothing when nothing changed', async () => {
		const { team, recorder } = await listeningTeam('Updates')
		expect(await call('PATCH', `/v1/workspaces/${team.workspace.id}`, team.admin.auth, {})).toBe(200)
		expect(await call('PATCH', `/v1/workspaces/${team.workspace.id}`, team.admin.auth, { name: 'Renamed' })).toBe(200)
		// Numbered: the workspace's first event.
		expect(await recorder.waitFor('workspace.updated')).toEqual({ workspaceId: team.workspace.id, seq: 1 })
		await server.realtime.flush()
		expect(recorder.events).toEqual([{ event: 'workspace.updated', data: { workspaceId: team.workspace.id, seq: 1 } }])
	})

	test('member.joined when an invitation brings someone in, once', async () => {
		const { team, recorder } = await listeningTeam('Joining')
		const invitation = await server.post(`/v1/workspaces/${team.workspace.id}/invitations`, { method: 'link', role: 'agent' }, team.admin.auth)
		const { code } = invitation.body as { code: string }
		const newcomer = await createUser({ name: 'Newcomer' })
		expect((await server.post('/v1/workspaces/invitations/accept', { code, method: 'link' }, newcomer.auth)).status).toBe(200)
		expect(await recorder.waitFor('member.joined')).toEqual({ workspaceId: team.workspace.id, userId: newcomer.user.id, seq: 1 })
		// Accepting again changes nothing, so says nothing.
		expect((await server.post('/v1/workspaces/invitations/accept', { code, method: 'link' }, newcomer.auth)).status).toBe(200)
		await server.realtime.flush()
		expect(recorder.events.filter((entry) => entry.event === 'member.joined')).toHaveLength(1)
	})

	test('member.updated for a role or an availability', async () => {
		const { team, recorder } = await listeningTeam('Roles')
		expect(await call('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.otherAgent.user.id}`, team.admin.auth, { role: 'admin' })).toBe(200)
		expect(await recorder.waitFor('member.updated', (data) => data.userId === team.otherAgent.user.id)).toEqual({
			workspaceId: team.workspace.id,
			userId: team.otherAgent.user.id,
			seq: 1,
		})
		expect(await call('PATCH', `/v1/workspaces/${team.workspace.id}/members/me`, team.owner.auth, { availability: 'busy' })).toBe(200)
		await recorder.waitFor('member.updated', (data) => data.userId === team.owner.user.id)
	})

	test('member.removed for a removal or a departure; the removed member’s connection is ended and stays out', async () => {
		const { team, recorder } = await listeningTeam('Removals')
		const removed = await server.connect(team.otherAgent.auth)
		const removedEvents = await recordEvents(removed, `private-workspace-${team.workspace.id}`)
		await expect.poll(() => removed.pusher.user.user_data?.id).toBe(team.otherAgent.user.id)

		const terminated = nextEvent<{ data: { code: number } }>(removed.pusher.connection, 'error', 5000)
		expect(await call('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.otherAgent.user.id}`, team.admin.auth)).toBe(204)
		expect(await recorder.waitFor('member.removed', (data) => data.userId === team.otherAgent.user.id)).toEqual({
			workspaceId: team.workspace.id,
			userId: team.otherAgent.user.id,
			seq: 1,
		})
		// They hear of it first (and revalidate), then the server closes their sockets: 4009.
		await removedEvents.waitFor('member.removed')
		expect((await terminated).data.code).toBe(4009)
		await expect.poll(() => removed.pusher.connection.state).toBe('disconnected')

		expect(await call('POST', `/v1/workspaces/${team.workspace.id}/leave`, team.admin.auth)).toBe(204)
		await recorder.waitFor('member.removed', (data) => data.userId === team.admin.user.id)
	})

	test('the module reconnects after the refusal, and its subscription to the workspace is refused then', async () => {
		const { team } = await listeningTeam('Reconnect')
		const removed = await server.connect(team.otherAgent.auth)
		const channel = `private-workspace-${team.workspace.id}`
		await recordEvents(removed, channel)
		await expect.poll(() => removed.pusher.user.user_data?.id).toBe(team.otherAgent.user.id)
		expect(await call('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.otherAgent.user.id}`, team.admin.auth)).toBe(204)
		const refused = nextEvent<{ error: string }>(removed.pusher.channel(channel), 'pusher:subscription_error', 8000)
		expect((await refused).error).toBe('status 403')
		expect(removed.pusher.connection.state).toBe('connected')
	}, 15_000)

	test('workspace.ownership-transferred, then workspace.deleted', async () => {
		const { team, recorder } = await listeningTeam('Ownership')
		expect(await call('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, team.owner.auth, { userId: team.admin.user.id })).toBe(200)
		expect(await recorder.waitFor('workspace.ownership-transferred')).toEqual({
			workspaceId: team.workspace.id,
			fromUserId: team.owner.user.id,
			toUserId: team.admin.user.id,
			seq: 1,
		})
		expect(await call('DELETE', `/v1/workspaces/${team.workspace.id}`, team.admin.auth, { confirmName: team.workspace.name })).toBe(204)
		// Its numbers went with it: unnumbered, which a page takes as a gap (it leaves the workspace anyway).
		expect(await recorder.waitFor('workspace.deleted')).toEqual({ workspaceId: team.workspace.id })
	})

	test('after a dropped connection the subscription is renewed and the listener told (to revalidate)', async () => {
		const { team, agent, recorder } = await listeningTeam('Dropped')
		expect(recorder.resubscribed()).toBe(0)
		await expect.poll(() => agent.pusher.user.user_data?.id).toBe(team.agent.user.id)
		// As a network failure would: pusher-js marks the channel disconnected, reconnects and subscribes again.
		const reconnected = nextEvent(agent.pusher.connection, 'connected', 8000)
		await server.sdk.terminateUserConnections(team.agent.user.id)
		await reconnected
		await expect.poll(() => recorder.resubscribed(), { timeout: 5000 }).toBe(1)
		expect(await call('PATCH', `/v1/workspaces/${team.workspace.id}`, team.owner.auth, { name: 'Still heard' })).toBe(200)
		await recorder.waitFor('workspace.updated')
	}, 15_000)

	test('a listener that left hears nothing more; the channel stays for the others', async () => {
		const { team, agent, channel, recorder } = await listeningTeam('Leaving')
		const second = await recordEvents(agent, channel)
		recorder.leave()
		expect(agent.pusher.channel(channel).subscribed).toBe(true)
		expect(await call('PATCH', `/v1/workspaces/${team.workspace.id}`, team.owner.auth, { name: 'After leaving' })).toBe(200)
		await second.waitFor('workspace.updated')
		expect(recorder.events).toEqual([])
		second.leave()
		expect(agent.pusher.channel(channel)).toBeUndefined()
	})
})

describe('the publisher', () => {
	test('never throws and never waits on a dead server: the failure is logged', async () => {
		const lines: Array<Record<string, unknown>> = []
		const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })
		const target = { appId: '1', key: 'k', secret: 's', host: '127.0.0.1', port: 1, useTLS: false }
		const realtime = createRealtime({ target: () => target, logger })
		const publishing = realtime.publish('private-workspace-x', 'workspace.updated', { workspaceId: 'x' })
		await expect(publishing).resolves.toBeUndefined()
		await realtime.flush()
		expect(lines).toMatchObject([{ level: 40, msg: 'realtime publish failed', channel: 'private-workspace-x', event: 'workspace.updated' }])
	})

	test('a refusal by the server (bad credentials) is logged with its status', async () => {
		const lines: Array<Record<string, unknown>> = []
		const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })
		const port = Number(new URL(server.url).port)
		const { app } = server.realtimeConfig
		const realtime = createRealtime({ target: () => ({ appId: app.id, key: app.key, secret: 'wrong', host: '127.0.0.1', port, useTLS: false }), logger })
		await realtime.publish('private-workspace-x', 'workspace.updated', {})
		expect(lines).toMatchObject([{ msg: 'realtime publish failed', status: 401 }])
	})
})
