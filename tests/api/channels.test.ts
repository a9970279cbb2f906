import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

type ChannelJson = {
	id: string
	kind: string
	name: string
	slug: string | null
	enabled: boolean
	status: string
	statusDetail: string | null
	settings: Record<string, unknown>
	teamId: string | null
	createdAt: string
	updatedAt: string
}

let api: TestApi
let team: Team
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Channels')
})
afterAll(() => api.close())

const path = (workspaceId: string, id?: string) => `/v1/workspaces/${workspaceId}/channels${id ? `/${id}` : ''}`
const notMember = { message: 'This workspace does not exist, or you are not a member of it.', statusCode: 404, details: null }
const missing = { message: 'This channel does not exist.', statusCode: 404, details: null }
const unique = () => `shop-${crypto.randomBytes(4).toString('hex')}`

async function create(body: Record<string, unknown>, auth = team.owner.auth): Promise<ChannelJson> {
	const response = await api.request('POST', path(team.workspace.id), { body: { kind: 'link', ...body }, headers: auth })
	expect(response.status).toBe(201)
	return response.body as ChannelJson
}

describe('channels', () => {
	test('owners and admins create a link channel with its page settings; secrets never appear in an answer', async () => {
		const slug = unique()
		const channel = await create({
			name: ' Website chat ',
			slug: ` ${slug.toUpperCase()} `,
			settings: { greeting: 'Hello! How can we help?', askName: true },
		})
		expect(Object.keys(channel).sort()).toEqual([
			'autoReplies',
			'businessHours',
			'campaignRatePerSecond',
			'createdAt',
			'csatEnabled',
			'enabled',
			'failingSince',
			'id',
			'kind',
			'kindRatePerSecond',
			'name',
			'settings',
			'slug',
			'status',
			'statusDetail',
			'teamId',
			'updatedAt',
		])
		expect(channel).toMatchObject({
			kind: 'link',
			name: 'Website chat',
			slug,
			enabled: true,
			status: 'active',
			settings: { greeting: 'Hello! How can we help?', askName: true, askEmail: false },
		})
		// Credentials written by a later channel kind still never leave.
		await testDb().updateTable('channels').set({ credentials: 'secret-credentials', webhookSecret: 'secret-hook' }).where('id', '=', channel.id).execute()
		const answers = [
			await api.request('GET', path(team.workspace.id, channel.id), { headers: team.agent.auth }),
			await api.request('GET', path(team.workspace.id), { headers: team.agent.auth }),
			await api.request('PATCH', path(team.workspace.id, channel.id), { body: { name: 'Website' }, headers: team.admin.auth }),
		]
		for (const answer of answers) {
			expect(answer.status).toBe(200)
			expect(JSON.stringify(answer.body)).not.toMatch(/secret-credentials|secret-hook|credentials|webhookSecret/)
		}
		expect(await create({ name: 'Admin’s link', slug: unique() }, team.admin.auth)).toMatchObject({ kind: 'link' })
	})

	test('the slug is suggested from the name when omitted, and the next free one when that is taken', async () => {
		const name = `Café Lumière ${crypto.randomBytes(3).toString('hex')}`
		const first = await create({ name })
		const base = name.toLowerCase().replace('é', 'e').replace('è', 'e').replace(/ /g, '-')
		expect(first.slug).toBe(base)
		expect((await create({ name })).slug).toBe(`${base}-2`)
		expect((await create({ name: 'دردشة الموقع' })).slug).toMatch(/^chat-[0-9a-f]{6}$/)
	})

	test('a slug is unique across the product (409 beside the field), on create and on edit', async () => {
		const slug = unique()
		await create({ name: 'First', slug })
		const other = await createTeam('Other channels')
		const elsewhere = await api.request('POST', path(other.workspace.id), { body: { kind: 'link', name: 'Theirs', slug }, headers: other.owner.auth })
		expect(elsewhere.status).toBe(409)
		const message = `The address “${slug}” is already taken. Choose another one.`
		expect(elsewhere.body).toEqual({ message, statusCode: 409, details: { source: 'body', fields: { slug: [message] } } })
		const second = await create({ name: 'Second', slug: unique() })
		const renamed = await api.request('PATCH', path(team.workspace.id, second.id), { body: { slug: slug.toUpperCase() }, headers: team.owner.auth })
		expect(renamed.status).toBe(409)
	})

	test('a deleted link’s slug stays its workspace’s for 30 days: another gets a 409 saying why (on create, on edit, never as a suggestion); the same workspace takes it back', async () => {
		const slug = unique()
		const gone = await create({ name: 'Gone soon', slug })
		expect((await api.request('DELETE', path(team.workspace.id, gone.id), { headers: team.owner.auth })).status).toBe(204)

		const other = await createTeam('Slug claimers')
		const claim = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
			api.request('POST', path(other.workspace.id), { body: { kind: 'link', name: 'Theirs', ...body }, headers: { ...other.owner.auth, ...headers } })
		const french = await claim({ slug }, { 'Accept-Language': 'fr' })
		expect(french.status).toBe(409)
		const message = `L’adresse « ${slug} » appartenait à un lien de discussion supprimé il y a moins de 30 jours. Elle reste réservée à son espace de travail d’ici là, pour que les visiteurs du lien n’arrivent pas sur la page de quelqu’un d’autre. Choisissez-en une autre.`
		expect(french.body).toEqual({ message, statusCode: 409, details: { source: 'body', fields: { slug: [message] } } })
		const theirs = (await claim({ slug: unique() })).body as ChannelJson
		const renamed = await api.request('PATCH', path(other.workspace.id, theirs.id), { body: { slug }, headers: other.owner.auth })
		expect(renamed.status).toBe(409)
		expect(renamed.body).toMatchObject({ message: expect.stringContaining(`The address “${slug}” belonged to a chat link deleted less than 30 days ago.`) })
		// A name that would make that slug is given the next free one.
		expect(((await claim({ name: slug })).body as ChannelJson).slug).toBe(`${slug}-2`)

		// Its own workspace takes it back; renamed away, the old slug is reserved again.
		const back = await create({ name: 'Back again', slug })
		expect(back.slug).toBe(slug)
		const moved = unique()
		expect((await api.request('PATCH', path(team.workspace.id, back.id), { body: { slug: moved }, headers: team.owner.auth })).status).toBe(200)
		expect((await claim({ slug })).status).toBe(409)

		// Thirty days on, anyone may take it.
		await testDb()
			.updateTable('releasedChannelSlugs')
			.set({ releasedAt: new Date(Date.now() - 31 * 86_400_000) })
			.where('slug', '=', slug)
			.execute()
		expect((await claim({ slug })).status).toBe(201)

		// A workspace deleted with its links: their slugs stay reserved too.
		const leaving = await createTeam('Leaving')
		const kept = unique()
		expect(
			(await api.request('POST', path(leaving.workspace.id), { body: { kind: 'link', name: 'Last words', slug: kept }, headers: leaving.owner.auth })).status,
		).toBe(201)
		await testDb().deleteFrom('workspaces').where('id', '=', leaving.workspace.id).execute()
		expect((await claim({ slug: kept })).status).toBe(409)
	})

	test.each(['instagram', 'facebook', 'messenger'])('a %s channel asks for its page, translated', async (kind) => {
		const response = await api.request('POST', path(team.workspace.id), {
			body: { kind, name: 'Page' },
			headers: { ...team.owner.auth, 'Accept-Language': 'fr' },
		})
		expect(response.status).toBe(400)
		expect(Object.keys((response.body as { details: { fields: Record<string, string[]> } }).details.fields).sort()).toEqual(['credentials', 'settings'])
		expect(response.body).toMatchObject({ message: 'Certains champs ne sont pas valides.' })
	})

	test.each([
		['an unknown kind', { kind: 'sms', name: 'x' }, 'kind', 'Choose one of: whatsapp, telegram, instagram, facebook, messenger, link, api.'],
		['no name', { kind: 'link', name: '  ' }, 'name', 'Must be at least 1 character.'],
		['a slug with spaces', { kind: 'link', name: 'x', slug: 'my shop' }, 'slug', 'Use lower-case letters, digits and hyphens (for example “acme-support”).'],
		[
			'a slug with a trailing hyphen',
			{ kind: 'link', name: 'x', slug: 'shop-' },
			'slug',
			'Use lower-case letters, digits and hyphens (for example “acme-support”).',
		],
		['a short slug', { kind: 'link', name: 'x', slug: 'ab' }, 'slug', 'Must be at least 3 characters.'],
		['a long greeting', { kind: 'link', name: 'x', settings: { greeting: 'x'.repeat(501) } }, 'settings.greeting', 'Must be at most 500 characters.'],
		['a flag that is not a boolean', { kind: 'link', name: 'x', settings: { askName: 'yes' } }, 'settings.askName', 'This value is not valid.'],
		['credentials', { kind: 'link', name: 'x', credentials: 'x' }, '_', 'Unknown field: credentials.'],
	])('refuses %s with a translated 400', async (_, body, field, message) => {
		const response = await api.request('POST', path(team.workspace.id), { body, headers: team.owner.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message: 'Some fields are not valid.', details: { source: 'body', fields: { [field]: [message] } } })
	})

	test('errors are translated in Arabic and French', async () => {
		const arabic = await api.request('POST', path(team.workspace.id), {
			body: { kind: 'link', name: '  ' },
			headers: { ...team.owner.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(arabic.body).toMatchObject({ statusCode: 400, details: { fields: { name: [expect.stringMatching(/[\u0600-\u06FF]/)] } } })
		const french = await api.request('POST', path(team.workspace.id), {
			body: { kind: 'link', name: 'x', slug: 'Mon Magasin' },
			headers: { ...team.owner.auth, 'Accept-Language': 'fr' },
		})
		expect(french.body).toMatchObject({
			details: { fields: { slug: ['Utilisez des lettres minuscules, des chiffres et des tirets (par exemple « acme-support »).'] } },
		})
		const gone = await api.request('GET', path(team.workspace.id, crypto.randomUUID()), { headers: { ...team.owner.auth, 'Accept-Language': 'fr' } })
		expect(gone.body).toMatchObject({ statusCode: 404, message: 'Ce canal n’existe pas.' })
	})

	test('agents read channels but may not write them (403)', async () => {
		const channel = await create({ name: 'Agent reads', slug: unique() })
		expect((await api.request('GET', path(team.workspace.id, channel.id), { headers: team.agent.auth })).body).toEqual({ ...channel, webhook: null })
		for (const [method, target] of [
			['POST', path(team.workspace.id)],
			['PATCH', path(team.workspace.id, channel.id)],
			['DELETE', path(team.workspace.id, channel.id)],
		] as const) {
			const response = await api.request(method, target, { body: { kind: 'link', name: 'agent' }, headers: team.agent.auth })
			expect(response.status).toBe(403)
			expect(response.body).toMatchObject({ message: 'You are not allowed to do this.' })
		}
	})

	test('edits merge the settings; switching off marks it disabled; deleting makes it gone', async () => {
		const channel = await create({ name: 'Edit me', slug: unique(), settings: { greeting: 'Hi', askEmail: true } })
		const edited = await api.request('PATCH', path(team.workspace.id, channel.id), {
			body: { enabled: false, settings: { askName: true } },
			headers: team.admin.auth,
		})
		expect(edited.body).toMatchObject({ enabled: false, status: 'disabled', settings: { greeting: 'Hi', askName: true, askEmail: true } })
		const again = await api.request('PATCH', path(team.workspace.id, channel.id), { body: { enabled: true }, headers: team.admin.auth })
		expect(again.body).toMatchObject({ enabled: true, status: 'active' })
		expect((await api.request('DELETE', path(team.workspace.id, channel.id), { headers: team.admin.auth })).status).toBe(204)
		expect((await api.request('GET', path(team.workspace.id, channel.id), { headers: team.owner.auth })).body).toEqual(missing)
		expect((await api.request('DELETE', path(team.workspace.id, channel.id), { headers: team.admin.auth })).body).toEqual(missing)
		expect((await api.request('GET', path(team.workspace.id, 'not-a-uuid'), { headers: team.owner.auth })).body).toEqual(missing)
	})

	test('the list holds the workspace’s channels, oldest first', async () => {
		const other = await createTeam('Listed channels')
		const add = (name: string) => api.request('POST', path(other.workspace.id), { body: { kind: 'link', name }, headers: other.owner.auth })
		await add('First link')
		await add('Second link')
		const listed = (await api.request('GET', path(other.workspace.id), { headers: other.agent.auth })).body as { channels: ChannelJson[] }
		expect(listed.channels.map((channel) => channel.name)).toEqual(['First link', 'Second link'])
	})

	test('another workspace sees nothing of them: 404 on every route, and its list holds none', async () => {
		const channel = await create({ name: 'Private', slug: unique() })
		const outsider = team.outsider.auth
		expect((await api.request('GET', path(team.workspace.id), { headers: outsider })).body).toEqual(notMember)
		expect((await api.request('POST', path(team.workspace.id), { body: { kind: 'link', name: 'x' }, headers: outsider })).body).toEqual(notMember)
		for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
			const body = method === 'PATCH' ? { name: 'x' } : undefined
			expect((await api.request(method, path(team.workspace.id, channel.id), { body, headers: outsider })).body).toEqual(notMember)
			// Their own workspace does not have it either.
			expect((await api.request(method, path(team.elsewhere.id, channel.id), { body, headers: outsider })).body).toEqual(missing)
		}
		expect((await api.request('GET', path(team.workspace.id, channel.id), { headers: team.owner.auth })).body).toMatchObject({ name: 'Private' })
		const theirs = (await api.request('GET', path(team.elsewhere.id), { headers: outsider })).body as { channels: ChannelJson[] }
		expect(theirs.channels).toEqual([])
	})

	test('a channel names the team its new conversations go to: one of its workspace’s, on create and on edit; none by null', async () => {
		const teamsPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/teams`
		const billing = (await api.request('POST', teamsPath(team.workspace.id), { body: { name: 'Channel billing' }, headers: team.owner.auth })).body as {
			id: string
		}
		const theirs = (await api.request('POST', teamsPath(team.elsewhere.id), { body: { name: 'Their team' }, headers: team.outsider.auth })).body as {
			id: string
		}
		const created = await create({ name: 'Billing chat', slug: unique(), teamId: billing.id })
		expect(created).toMatchObject({ teamId: billing.id })
		const plain = await create({ name: 'No team chat', slug: unique() })
		expect(plain.teamId).toBeNull()

		// Another workspace's team, on create and on edit, in French: a 422 beside the field, nothing kept.
		const french = { ...team.owner.auth, 'Accept-Language': 'fr' }
		const refusedCreate = await api.request('POST', path(team.workspace.id), { body: { kind: 'link', name: 'Cross', teamId: theirs.id }, headers: french })
		expect(refusedCreate.status).toBe(422)
		expect(refusedCreate.body).toMatchObject({ details: { fields: { teamId: ['Cette équipe n’est pas une équipe de cet espace de travail.'] } } })
		const refusedEdit = await api.request('PATCH', path(team.workspace.id, plain.id), { body: { teamId: theirs.id }, headers: team.admin.auth })
		expect(refusedEdit.status).toBe(422)
		expect(refusedEdit.body).toMatchObject({ details: { fields: { teamId: ['This team is not one of this workspace’s teams.'] } } })
		const row = await testDb().selectFrom('channels').select('teamId').where('id', '=', plain.id).executeTakeFirstOrThrow()
		expect(row.teamId).toBeNull()
		expect((await api.request('PATCH', path(team.workspace.id, plain.id), { body: { teamId: 'billing' }, headers: team.owner.auth })).status).toBe(400)

		// Set, read back, then cleared; an agent may not set it.
		const set = await api.request('PATCH', path(team.workspace.id, plain.id), { body: { teamId: billing.id }, headers: team.admin.auth })
		expect(set.body).toMatchObject({ teamId: billing.id })
		expect((await api.request('GET', path(team.workspace.id, plain.id), { headers: team.agent.auth })).body).toMatchObject({ teamId: billing.id })
		expect((await api.request('PATCH', path(team.workspace.id, plain.id), { body: { teamId: null }, headers: team.agent.auth })).status).toBe(403)
		const cleared = await api.request('PATCH', path(team.workspace.id, plain.id), { body: { teamId: null }, headers: team.owner.auth })
		expect(cleared.body).toMatchObject({ teamId: null })

		// The team deleted: its channels are left without one.
		expect((await api.request('DELETE', `${teamsPath(team.workspace.id)}/${billing.id}`, { headers: team.owner.auth })).status).toBe(204)
		expect((await api.request('GET', path(team.workspace.id, created.id), { headers: team.owner.auth })).body).toMatchObject({ teamId: null })
	})
})
