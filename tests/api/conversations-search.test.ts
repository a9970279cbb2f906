import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ConversationCursor } from '#api/conversations/cursor.ts'
import { listConditions, listConversations } from '#api/conversations/queries.ts'
import { everyone } from '#api/conversations/visibility.ts'
import { listConversationsQuery } from '#api/conversations/schemas.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { conversationsPath, createLinkChannel, customerWrites, postMessage, type ConversationJson } from './conversations-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
let team: Team
const numbers: Record<string, number> = {}
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Search')
	const channel = await createLinkChannel(team.workspace.id)
	numbers.refund = (await customerWrites(channel, 'refund', 'I would like a REFUND for order 4521, please')).conversation.number
	numbers.arabic = (await customerWrites(channel, 'arabic', 'أُرِيدُ إِلْغَاءَ الطَّلَبِ')).conversation.number
	numbers.french = (await customerWrites(channel, 'french', 'Où est ma commande livrée hier ?')).conversation.number
	numbers.contact = (await customerWrites(channel, 'contact', 'Hello', { name: 'Mostafa Kamal' })).conversation.number
	numbers.noted = (await customerWrites(channel, 'noted', 'Hi')).conversation.number
	await postMessage(api, team.agent.auth, team.workspace.id, numbers.noted, { kind: 'note', body: 'escalated to logistics' })
	// Another workspace's messages with the same words are never found here.
	const theirs = await createLinkChannel(team.elsewhere.id)
	await customerWrites(theirs, 'theirs', 'refund refund refund')
})
afterAll(() => api.close())

async function search(text: string, extra = '&status=all') {
	const response = await api.request('GET', conversationsPath(team.workspace.id, `?search=${encodeURIComponent(text)}${extra}`), { headers: team.agent.auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return (response.body as { conversations: ConversationJson[] }).conversations.map((conversation) => conversation.number).sort((a, b) => a - b)
}

describe('searching conversations', () => {
	test.each([
		['a word of a message, in any case', 'refund', ['refund']],
		['the start of a word', 'refu', ['refund']],
		['every word must appear', 'refund order', ['refund']],
		['a word missing from the message', 'refund parcel', []],
		['a number', '4521', ['refund']],
		['Arabic without its vowel marks or hamza', 'الغاء', ['arabic']],
		['Arabic with them', 'إِلْغَاءَ', ['arabic']],
		['French without its accents', 'livree', ['french']],
		['French with them', 'LIVRÉE', ['french']],
		['a private note', 'logistics', ['noted']],
		['the contact’s name', 'mostafa', ['contact']],
		['the inside of a contact’s name, as the contacts list finds it', 'staf', ['contact']],
		['punctuation only', '!!! ***', []],
		['tsquery syntax taken literally', "refund' & !(x", []],
	])('finds %s', async (_, text, expected) => {
		expect(await search(text)).toEqual(expected.map((name) => numbers[name]).sort((a, b) => a! - b!))
	})

	test('combines with the other filters and pages by keyset', async () => {
		expect(await search('refund', '&status=open&assignee=unassigned&sort=created')).toEqual([numbers.refund])
		expect(await search('refund', '&status=resolved')).toEqual([])
		await testDb().updateTable('conversations').set({ priority: 3 }).where('workspaceId', '=', team.workspace.id).execute()
		expect(await search('hello', '&status=all&priority=high&sort=priority&limit=1')).toEqual([numbers.contact])
	})

	test('both ways of searching (walking the list for a common word, reading the matches for a rare one) find the same, page after page', async () => {
		const team = await createTeam('Broad search')
		const channel = await createLinkChannel(team.workspace.id)
		const numbers: number[] = []
		for (let index = 0; index < 12; index++)
			numbers.push((await customerWrites(channel, `broad-${index}`, index < 10 ? `a ubiquitous word ${index}` : `hello ${index}`)).conversation.number)
		const reader = team.agent.user.id
		// PostgreSQL's estimate picks the way (broadSearch); with a dozen rows, the test picks it instead.
		for (const broadAbove of [-1, Number.POSITIVE_INFINITY]) {
			const found: number[] = []
			let after: ConversationCursor | undefined
			do {
				const query = listConversationsQuery.parse({ search: 'ubiquitous', limit: '4' })
				const page = await listConversations(
					testDb(),
					team.workspace.id,
					reader,
					{ ...query, after },
					await listConditions(testDb(), team.workspace.id, everyone(reader), query, broadAbove),
				)
				found.push(...page.conversations.map((conversation) => conversation.number))
				after = page.next
			} while (after)
			expect(found.sort((a, b) => a - b)).toEqual(numbers.slice(0, 10))
		}
	})

	test('refuses a search over 100 characters with a translated 400', async () => {
		const response = await api.request('GET', conversationsPath(team.workspace.id, `?search=${'x'.repeat(101)}`), {
			headers: { ...team.agent.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(response.status).toBe(400)
		expect((response.body as { message: string }).message).toMatch(/[\u0600-\u06FF]/)
	})
})
