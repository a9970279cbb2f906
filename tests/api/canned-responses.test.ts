import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

type CannedJson = { id: string; shortCode: string; content: string; createdAt: string; updatedAt: string }

let api: TestApi
let team: Team
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Canned')
})
afterAll(() => api.close())

const path = (workspaceId: string, id?: string) => `/v1/workspaces/${workspaceId}/canned-responses${id ? `/${id}` : ''}`
const notMember = { message: 'This workspace does not exist, or you are not a member of it.', statusCode: 404, details: null }
const missing = { message: 'This canned response does not exist.', statusCode: 404, details: null }

async function create(body: { shortCode: string; content: string }, auth = team.owner.auth): Promise<CannedJson> {
	const response = await api.request('POST', path(team.workspace.id), { body, headers: auth })
	expect(response.status).toBe(201)
	return response.body as CannedJson
}

describe('canned responses', () => {
	test('owners and admins create them; the short code is trimmed; only these fields are answered', async () => {
		const canned = await create({ shortCode: ' hours ', content: 'We are open 9:00–18:00, Sunday to Thursday.' })
		expect(Object.keys(canned).sort()).toEqual(['content', 'createdAt', 'id', 'shortCode', 'updatedAt'])
		expect(canned).toMatchObject({ shortCode: 'hours', content: 'We are open 9:00–18:00, Sunday to Thursday.' })
		expect(await create({ shortCode: 'شكرا', content: 'شكراً لتواصلك معنا!' }, team.admin.auth)).toMatchObject({ shortCode: 'شكرا' })
	})

	test('agents read them (the composer offers them) but may not write them (403)', async () => {
		const canned = await create({ shortCode: 'agent-reads', content: 'Hello' })
		expect((await api.request('GET', path(team.workspace.id), { headers: team.agent.auth })).status).toBe(200)
		expect((await api.request('GET', path(team.workspace.id, canned.id), { headers: team.agent.auth })).body).toEqual(canned)
		for (const [method, target] of [
			['POST', path(team.workspace.id)],
			['PATCH', path(team.workspace.id, canned.id)],
			['DELETE', path(team.workspace.id, canned.id)],
		] as const) {
			const response = await api.request(method, target, { body: { shortCode: 'agent', content: 'x' }, headers: team.agent.auth })
			expect(response.status).toBe(403)
			expect(response.body).toMatchObject({ message: 'You are not allowed to do this.' })
		}
	})

	test.each([
		['two words', { shortCode: 'two words', content: 'x' }, 'shortCode', 'Use one word: letters, digits, - and _.'],
		['an empty code', { shortCode: ' ', content: 'x' }, 'shortCode', 'Must be at least 1 character.'],
		['a long code', { shortCode: 'x'.repeat(33), content: 'x' }, 'shortCode', 'Must be at most 32 characters.'],
		['no text', { shortCode: 'empty', content: '   ' }, 'content', 'Must be at least 1 character.'],
		['a text over 4 096 characters', { shortCode: 'long', content: 'x'.repeat(4097) }, 'content', 'Must be at most 4096 characters.'],
	])('refuses %s with a translated 400', async (_, body, field, message) => {
		const response = await api.request('POST', path(team.workspace.id), { body, headers: team.owner.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message: 'Some fields are not valid.', details: { source: 'body', fields: { [field]: [message] } } })
	})

	test('refuses in Arabic and French too, and unknown fields', async () => {
		const arabic = await api.request('POST', path(team.workspace.id), {
			body: { shortCode: 'a b', content: 'x' },
			headers: { ...team.owner.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(arabic.body).toMatchObject({ details: { fields: { shortCode: ['استخدم كلمة واحدة: حروف وأرقام و- و_.'] } } })
		const french = await api.request('POST', path(team.workspace.id), {
			body: { shortCode: 'ok', content: 'x', extra: 1 },
			headers: { ...team.owner.auth, 'Accept-Language': 'fr' },
		})
		expect(french.status).toBe(400)
	})

	test('a short code is unique per workspace whatever its case (409 beside the field), on create and on edit', async () => {
		await create({ shortCode: 'Refund', content: 'Your refund is on its way.' })
		const again = await api.request('POST', path(team.workspace.id), { body: { shortCode: 'REFUND', content: 'x' }, headers: team.owner.auth })
		expect(again.status).toBe(409)
		expect(again.body).toEqual({
			message: 'A canned response with the short code “REFUND” already exists.',
			statusCode: 409,
			details: { source: 'body', fields: { shortCode: ['A canned response with the short code “REFUND” already exists.'] } },
		})
		const other = await create({ shortCode: 'delivery', content: 'Delivery takes two days.' })
		const renamed = await api.request('PATCH', path(team.workspace.id, other.id), { body: { shortCode: 'refund' }, headers: team.admin.auth })
		expect(renamed.status).toBe(409)
	})

	test('edits change what is given; deleting makes it gone', async () => {
		const canned = await create({ shortCode: 'edit-me', content: 'Before' })
		const edited = await api.request('PATCH', path(team.workspace.id, canned.id), { body: { content: 'After' }, headers: team.admin.auth })
		expect(edited.body).toMatchObject({ shortCode: 'edit-me', content: 'After' })
		expect((await api.request('DELETE', path(team.workspace.id, canned.id), { headers: team.admin.auth })).status).toBe(204)
		expect((await api.request('GET', path(team.workspace.id, canned.id), { headers: team.owner.auth })).body).toEqual(missing)
		expect((await api.request('DELETE', path(team.workspace.id, canned.id), { headers: team.admin.auth })).body).toEqual(missing)
	})

	test('search: codes starting with the text first, then codes or texts containing it, ignoring case, accents and vowel marks', async () => {
		const workspace = await createTeam('Canned search')
		const add = (shortCode: string, content: string) =>
			api.request('POST', path(workspace.workspace.id), { body: { shortCode, content }, headers: workspace.owner.auth })
		await add('greet', 'Bonjour et bienvenue !')
		await add('thanks', 'Merci, à bientôt.')
		await add('wrap-up', 'Thanks again, we will get back to you.')
		await add('شكر', 'شُكْراً جزيلاً')
		const search = async (text: string) =>
			(
				(await api.request('GET', `${path(workspace.workspace.id)}?search=${encodeURIComponent(text)}`, { headers: workspace.agent.auth })).body as {
					cannedResponses: CannedJson[]
				}
			).cannedResponses.map((canned) => canned.shortCode)
		expect(await search('THANK')).toEqual(['thanks', 'wrap-up'])
		expect(await search('bientot')).toEqual(['thanks'])
		expect(await search('شكرا')).toEqual(['شكر'])
		expect(await search('100%')).toEqual([])
		expect(await search('')).toEqual(['greet', 'thanks', 'wrap-up', 'شكر'])
	})

	test('another workspace sees nothing of them: 404 on every route, and its list holds none', async () => {
		const canned = await create({ shortCode: 'private', content: 'Ours only' })
		const outsider = team.outsider.auth
		expect((await api.request('GET', path(team.workspace.id), { headers: outsider })).body).toEqual(notMember)
		for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
			const body = method === 'PATCH' ? { content: 'x' } : undefined
			expect((await api.request(method, path(team.workspace.id, canned.id), { body, headers: outsider })).body).toEqual(notMember)
			// Their own workspace does not have it either.
			expect((await api.request(method, path(team.elsewhere.id, canned.id), { body, headers: outsider })).body).toEqual(missing)
		}
		expect((await api.request('GET', path(team.workspace.id, canned.id), { headers: team.owner.auth })).status).toBe(200)
		const theirs = (await api.request('GET', path(team.elsewhere.id), { headers: outsider })).body as { cannedResponses: CannedJson[] }
		expect(theirs.cannedResponses).toEqual([])
		expect((await api.request('GET', path(team.workspace.id, 'not-a-uuid'), { headers: team.owner.auth })).body).toEqual(missing)
		expect((await api.request('GET', path(team.workspace.id), {})).status).toBe(401)
	})
})
