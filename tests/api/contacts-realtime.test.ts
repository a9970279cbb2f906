import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { nextEvent, recordEvents, startRealtimeServer, type RealtimeTestServer } from './realtime-support.ts'
import { contactsPath, labelsPath } from './contacts-fixtures.ts'
import { createTeam } from './workspaces-fixtures.ts'

let server: RealtimeTestServer
beforeAll(async () => {
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	server = await startRealtimeServer()
})
afterAll(() => server.close())

async function call(method: string, path: string, auth: Record<string, string>, body?: unknown, type = 'application/json') {
	const response = await fetch(`${server.url}${path}`, {
		method,
		headers: { ...auth, ...(body === undefined ? {} : { 'Content-Type': type }) },
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	})
	const text = await response.text()
	return { status: response.status, body: (text && type === 'application/json' ? JSON.parse(text) : text) as { id: string } }
}

describe('contact and label events on private-workspace-{id}', () => {
	test('each change is announced after it is saved, with ids only; a refused one is not', async () => {
		const team = await createTeam('Contact events')
		const agent = await server.connect(team.agent.auth)
		const channel = `private-workspace-${team.workspace.id}`
		const recorder = await recordEvents(agent, channel)
		const workspaceId = team.workspace.id

		const label = await call('POST', labelsPath(workspaceId), team.admin.auth, { title: 'vip', color: '#112233' })
		expect(await recorder.waitFor('label.created')).toEqual({ workspaceId, labelId: label.body.id, seq: expect.any(Number) })
		await call('PATCH', labelsPath(workspaceId, `/${label.body.id}`), team.admin.auth, { color: '#445566' })
		expect(await recorder.waitFor('label.updated')).toEqual({ workspaceId, labelId: label.body.id, seq: expect.any(Number) })

		const contact = await call('POST', contactsPath(workspaceId), team.agent.auth, { name: 'Salma' })
		expect(await recorder.waitFor('contact.created')).toEqual({ workspaceId, contactId: contact.body.id, seq: expect.any(Number) })
		await call('PATCH', contactsPath(workspaceId, `/${contact.body.id}`), team.agent.auth, { company: 'Nile' })
		expect(await recorder.waitFor('contact.updated')).toEqual({ workspaceId, contactId: contact.body.id, seq: expect.any(Number) })
		await call('POST', contactsPath(workspaceId, '/bulk'), team.agent.auth, { action: 'label', contactIds: [contact.body.id], labelId: label.body.id })
		expect(await recorder.waitFor('contact.bulk-changed')).toEqual({ workspaceId, action: 'label', seq: expect.any(Number) })
		await call('POST', contactsPath(workspaceId, '/import'), team.agent.auth, 'name\nImported\n', 'text/csv')
		expect(await recorder.waitFor('contact.imported')).toEqual({ workspaceId, seq: expect.any(Number) })

		expect((await call('DELETE', contactsPath(workspaceId, `/${contact.body.id}`), team.agent.auth)).status).toBe(403)
		expect((await call('DELETE', contactsPath(workspaceId, `/${contact.body.id}`), team.owner.auth)).status).toBe(204)
		expect(await recorder.waitFor('contact.deleted')).toEqual({ workspaceId, contactId: contact.body.id, seq: expect.any(Number) })
		await call('DELETE', labelsPath(workspaceId, `/${label.body.id}`), team.owner.auth)
		expect(await recorder.waitFor('label.deleted')).toEqual({ workspaceId, labelId: label.body.id, seq: expect.any(Number) })

		await server.realtime.flush()
		expect(recorder.events.map((entry) => entry.event)).toEqual([
			'label.created',
			'label.updated',
			'contact.created',
			'contact.updated',
			'contact.bulk-changed',
			'contact.imported',
			'contact.deleted',
			'label.deleted',
		])
	})

	test("another workspace's members hear nothing of it", async () => {
		const team = await createTeam('Quiet elsewhere')
		const outsider = await server.connect(team.outsider.auth)
		const theirs = await recordEvents(outsider, `private-workspace-${team.elsewhere.id}`)
		await call('POST', contactsPath(team.workspace.id), team.agent.auth, { name: 'Private' })
		await server.realtime.flush()
		await expect(nextEvent(outsider.pusher.channel(`private-workspace-${team.elsewhere.id}`), 'contact.created', 300)).rejects.toThrow(/timed out/)
		expect(theirs.events).toEqual([])
	})
})
