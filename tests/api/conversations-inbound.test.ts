import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Channel } from '#api/db/schema.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { recordingRealtime, type Published } from './conversations-fixtures.ts'
import { closeTestDb, testDb } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let team: Team
let channel: Channel
beforeAll(async () => {
	team = await createTeam('Inbound')
	channel = await testDb()
		.insertInto('channels')
		.values({ workspaceId: team.workspace.id, kind: 'link', name: 'Website', slug: `inbound-${Date.now()}` })
		.returningAll()
		.executeTakeFirstOrThrow()
})
afterAll(() => closeTestDb())

describe('an incoming message', () => {
	test('creates the contact, a numbered conversation and the message, once per provider id; a later one reuses them', async () => {
		const published: Published[] = []
		const realtime = recordingRealtime(published)
		const from = { externalId: 'visitor-1', name: 'Amira Haddad', unverifiedEmail: 'Amira.Inbound@example.com' }
		const first = await receiveMessage(testDb(), realtime, { channel, from, externalId: 'm-1', body: '  مرحبا،\n هل أنتم مفتوحون؟ ' })
		expect(first.duplicate).toBe(false)
		expect(first.conversation).toMatchObject({
			number: 1,
			status: 'open',
			incomingCount: 1,
			lastMessageExcerpt: 'مرحبا، هل أنتم مفتوحون؟',
			lastMessageDirection: 'incoming',
		})
		const contact = await testDb().selectFrom('contacts').selectAll().where('id', '=', first.conversation.contactId).executeTakeFirstOrThrow()
		expect(contact).toMatchObject({ name: 'Amira Haddad', email: null, unverifiedEmail: 'amira.inbound@example.com', workspaceId: team.workspace.id })

		const retried = await receiveMessage(testDb(), realtime, { channel, from, externalId: 'm-1', body: 'ignored' })
		expect(retried).toMatchObject({ duplicate: true, message: { id: first.message.id } })

		const second = await receiveMessage(testDb(), realtime, { channel, from, externalId: 'm-2', body: 'Second' })
		expect(second.conversation).toMatchObject({ id: first.conversation.id, incomingCount: 2 })
		expect(BigInt(second.message.id)).toBeGreaterThan(BigInt(first.message.id))
		// Published after the commit, never awaited by the caller.
		await expect.poll(() => published.map(({ event }) => event)).toEqual(['conversation.created', 'message.created', 'conversation.updated', 'message.created'])
		expect(published[0]).toMatchObject({
			channel: `private-workspace-${team.workspace.id}`,
			data: { conversationId: first.conversation.id, number: 1, seq: 1 },
		})
	})

	test('reopens a resolved or snoozed conversation and clears the snooze, with an activity line', async () => {
		const from = { externalId: 'visitor-2', name: 'Julien' }
		const { conversation } = await receiveMessage(testDb(), recordingRealtime([]), { channel, from, body: 'Bonjour' })
		await testDb()
			.updateTable('conversations')
			.set({ status: 'snoozed', snoozedUntil: new Date(Date.now() + 3_600_000) })
			.where('id', '=', conversation.id)
			.execute()
		const again = await receiveMessage(testDb(), recordingRealtime([]), { channel, from, body: 'Encore moi' })
		expect(again.conversation).toMatchObject({ id: conversation.id, status: 'open', snoozedUntil: null })
		const kinds = await testDb().selectFrom('messages').select(['kind', 'activity']).where('conversationId', '=', conversation.id).orderBy('id').execute()
		expect(kinds).toEqual([
			{ kind: 'text', activity: null },
			{ kind: 'activity', activity: { key: 'activity.reopenedByCustomer', values: {} } },
			{ kind: 'text', activity: null },
		])
	})
})
