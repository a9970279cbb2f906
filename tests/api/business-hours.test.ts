import crypto from 'node:crypto'
import { DateTime } from 'luxon'
import { beforeAll, describe, expect, test } from 'vitest'
import { type BusinessHours } from '#common/business-hours.ts'
import { inboundText, startWhatsAppFake, type WhatsAppFake } from '../fakes/whatsapp.ts'
import { type ChannelReader, channelSuite, until } from './channels-fixtures.ts'
import { postMessage } from './conversations-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { type Team } from './workspaces-fixtures.ts'

const suite = channelSuite(startWhatsAppFake, 'WHATSAPP_API_URL', 'Business hours')
let fake: WhatsAppFake, api: TestApi, team: Team, reader: ChannelReader
beforeAll(() => ({ fake, api, team, reader } = suite))

const workspacePath = () => `/v1/workspaces/${team.workspace.id}`
const channelsPath = (rest = '') => `/v1/workspaces/${team.workspace.id}/channels${rest}`
const appSecret = 'f3a1c0ffee0123456789abcdef012345'

const nineToFive = (...open: number[]): BusinessHours => ({
	days: [0, 1, 2, 3, 4, 5, 6].map((day) => (open.includes(day) ? [{ from: '09:00', to: '17:00' }] : [])),
	holidays: [],
})
const weekdays = nineToFive(0, 1, 2, 3, 4)
const allDay: BusinessHours = { days: Array.from({ length: 7 }, () => [{ from: '00:00', to: '24:00' }]), holidays: [] }
const never: BusinessHours = { days: Array.from({ length: 7 }, () => []), holidays: [] }

type Fields = Record<string, string[]>
const fieldsOf = (body: unknown) => (body as { details: { fields: Fields } }).details.fields

async function setWorkspace(body: Record<string, unknown>) {
	const answer = await api.request('PATCH', workspacePath(), { headers: team.owner.auth, body })
	expect(answer.status, JSON.stringify(answer.body)).toBe(200)
	return answer.body as { businessHours: BusinessHours | null }
}

async function connectWhatsApp(name: string, changes: Record<string, unknown>) {
	const number = fake.addNumber()
	const created = await api.request('POST', channelsPath(), {
		headers: team.owner.auth,
		body: {
			kind: 'whatsapp',
			name,
			settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
			credentials: { accessToken: number.accessToken, appSecret },
		},
	})
	expect(created.status).toBe(201)
	const channel = created.body as { id: string; webhook: { url: string } }
	const changed = await api.request('PATCH', channelsPath(`/${channel.id}`), { headers: team.owner.auth, body: changes })
	expect(changed.status, JSON.stringify(changed.body)).toBe(200)
	const webhook = `${api.url}${new URL(channel.webhook.url).pathname}`
	const customer = { waId: `2010${crypto.randomInt(10_000_000, 99_999_999)}`, name: 'Mona' }
	let sent = 0
	return {
		channel,
		number,
		/** The customer writes at `at` (WhatsApp's timestamp); resolves once the message is stored. */
		async write(text: string, at: string) {
			const payload = inboundText(number.phoneNumberId, customer, text)
			payload.entry[0]!.changes[0]!.value.messages[0]!.timestamp = String(DateTime.fromISO(at, { setZone: true }).toSeconds())
			expect((await fake.postWebhook(webhook, appSecret, payload)).status).toBe(200)
			sent += 1
			const count = sent
			return until(async () =>
				testDb().selectFrom('conversations').selectAll().where('channelId', '=', channel.id).where('incomingCount', '=', count).executeTakeFirst(),
			)
		},
		/** The auto-replies sent so far on the channel, oldest first. */
		replies: () =>
			testDb()
				.selectFrom('messages')
				.select(['id', 'body', 'status', 'senderId'])
				.where('channelId', '=', channel.id)
				.where('direction', '=', 'outgoing')
				.where('kind', '=', 'text')
				.orderBy('id')
				.execute(),
	}
}

const away = (text: string, translations: Record<string, string> = {}) => ({ away: { enabled: true, text, translations } })

describe('the workspace’s business hours', () => {
	test('managers set them on the workspace (null: always open), agents read them and may not write; bad hours are refused at their field, translated', async () => {
		expect((await setWorkspace({ businessHours: weekdays, timezone: 'Europe/Paris' })).businessHours).toEqual(weekdays)
		const read = await api.request('GET', workspacePath(), { headers: team.agent.auth })
		expect((read.body as { businessHours: BusinessHours }).businessHours).toEqual(weekdays)
		const admin = await api.request('PATCH', workspacePath(), {
			headers: team.admin.auth,
			body: { businessHours: { ...weekdays, holidays: ['2026-12-25', '2026-01-01', '2026-12-25'] } },
		})
		expect((admin.body as { businessHours: BusinessHours }).businessHours.holidays).toEqual(['2026-01-01', '2026-12-25'])
		expect((await api.request('PATCH', workspacePath(), { headers: team.agent.auth, body: { businessHours: null } })).status).toBe(403)
		// Another workspace's owner does not reach it.
		expect((await api.request('PATCH', workspacePath(), { headers: team.outsider.auth, body: { businessHours: null } })).status).toBe(404)

		const monday = (ranges: unknown) => ({ businessHours: { ...weekdays, days: [ranges, ...weekdays.days.slice(1)] } })
		const refused = async (body: unknown, locale = 'en-us') => {
			const answer = await api.request('PATCH', workspacePath(), { headers: { ...team.owner.auth, 'Accept-Language': locale }, body })
			expect(answer.status).toBe(400)
			return fieldsOf(answer.body)
		}
		expect(await refused(monday([{ from: '9:00', to: '9:30' }]))).toEqual({
			'businessHours.days.0.0.from': ['Enter a time as HH:MM, from 00:00 to 24:00.'],
			'businessHours.days.0.0.to': ['Enter a time as HH:MM, from 00:00 to 24:00.'],
		})
		expect(await refused(monday([{ from: '17:00', to: '09:00' }]), 'fr-x')).toEqual({
			'businessHours.days.0.0.to': ['L’heure de fermeture doit suivre l’heure d’ouverture.'],
		})
		expect(
			await refused(
				monday([
					{ from: '09:00', to: '13:00' },
					{ from: '12:00', to: '17:00' },
				]),
				'ar-eg',
			),
		).toEqual({ 'businessHours.days.0': ['يجب أن تبدأ الفترة الثانية بعد انتهاء الأولى.'] })
		expect(await refused({ businessHours: { ...weekdays, holidays: ['2026-02-30'] } })).toEqual({
			'businessHours.holidays.0': ['Enter a real date as YYYY-MM-DD.'],
		})
		expect(Object.keys(await refused({ businessHours: { ...weekdays, days: weekdays.days.slice(1) } }))).toEqual(['businessHours.days'])
		// Nothing was changed by a refusal.
		expect(((await api.request('GET', workspacePath(), { headers: team.owner.auth })).body as { businessHours: BusinessHours }).businessHours.holidays).toEqual(
			['2026-01-01', '2026-12-25'],
		)
	})

	test('a channel’s own hours and auto-replies: managers write them through the channel, bad ones are refused at their field, another workspace’s channel is not found', async () => {
		const created = await api.request('POST', channelsPath(), { headers: team.owner.auth, body: { kind: 'link', name: 'Hours link' } })
		const id = (created.body as { id: string }).id
		expect((created.body as { autoReplies: unknown; businessHours: unknown }).businessHours).toBeNull()
		const body = {
			businessHours: allDay,
			autoReplies: { greeting: { enabled: true, text: 'Hello!', translations: { 'ar-eg': 'أهلًا!' } } },
		}
		const changed = await api.request('PATCH', channelsPath(`/${id}`), { headers: team.admin.auth, body })
		expect(changed.status).toBe(200)
		expect(changed.body).toMatchObject({
			businessHours: allDay,
			autoReplies: { greeting: { enabled: true, text: 'Hello!', translations: { 'ar-eg': 'أهلًا!' } }, away: { enabled: false, text: '', translations: {} } },
		})
		// The other reply is kept when one changes; null hours follow the workspace's again.
		const again = await api.request('PATCH', channelsPath(`/${id}`), {
			headers: team.owner.auth,
			body: { businessHours: null, autoReplies: away('Back soon') },
		})
		expect(again.body).toMatchObject({ businessHours: null, autoReplies: { greeting: { enabled: true }, away: { enabled: true, text: 'Back soon' } } })

		expect((await api.request('PATCH', channelsPath(`/${id}`), { headers: team.agent.auth, body })).status).toBe(403)
		const outsider = await api.request('PATCH', `/v1/workspaces/${team.elsewhere.id}/channels/${id}`, { headers: team.outsider.auth, body })
		expect(outsider.status).toBe(404)
		const bad = await api.request('PATCH', channelsPath(`/${id}`), {
			headers: team.owner.auth,
			body: { autoReplies: { away: { enabled: true, text: '  ', translations: { 'de-de': 'Hallo' } } }, businessHours: { days: [], holidays: [] } },
		})
		expect(bad.status).toBe(400)
		expect(Object.keys(fieldsOf(bad.body)).sort()).toEqual(['autoReplies.away.translations.de-de', 'businessHours.days'])
		const empty = await api.request('PATCH', channelsPath(`/${id}`), {
			headers: team.owner.auth,
			body: { autoReplies: { away: { enabled: true, text: ' ' } } },
		})
		expect(fieldsOf(empty.body)).toEqual({ 'autoReplies.away.text': ['Write the message to send, or switch it off.'] })
	})
})

describe('auto-replies through WhatsApp', () => {
	test('the away message goes once per conversation and closed period, by the channel’s delivery, across a DST change, and is not the first response', async () => {
		await setWorkspace({ businessHours: weekdays, timezone: 'Europe/Paris' })
		const wa = await connectWhatsApp('Away', { autoReplies: away('We are closed, back at 9.') })

		// Tuesday 24 March 2026, 22:00 in Paris (UTC+1), then Wednesday 06:00: one night, one away message.
		await wa.write('Hello?', '2026-03-24T22:00:00+01:00')
		const conversation = await wa.write('Anyone?', '2026-03-25T06:00:00+01:00')
		expect(await wa.replies()).toHaveLength(1)
		// Wednesday 10:00: open.
		await wa.write('Good morning', '2026-03-25T10:00:00+01:00')
		expect(await wa.replies()).toHaveLength(1)
		// Wednesday 20:00: the next night, another.
		await wa.write('Still there?', '2026-03-25T20:00:00+01:00')
		expect(await wa.replies()).toHaveLength(2)

		// Friday 17:00 to Monday 09:00, with clocks going forward on Sunday 29 March (UTC+1 → UTC+2).
		await wa.write('Saturday question', '2026-03-28T12:00:00+01:00')
		expect(await wa.replies()).toHaveLength(3)
		// Monday 08:30 in Paris is 06:30 UTC: still the weekend's closed period.
		await wa.write('Monday, early', '2026-03-30T06:30:00Z')
		expect(await wa.replies()).toHaveLength(3)
		// 07:30 UTC is 09:30 in Paris after the change (08:30 before it): open, nothing sent.
		await wa.write('Monday, open', '2026-03-30T07:30:00Z')
		expect(await wa.replies()).toHaveLength(3)

		const periods = await testDb()
			.selectFrom('awayReplies')
			.select('periodStart')
			.where('conversationId', '=', conversation.id)
			.orderBy('periodStart')
			.execute()
		expect(periods.map((row) => row.periodStart.toISOString())).toEqual(['2026-03-24T16:00:00.000Z', '2026-03-25T16:00:00.000Z', '2026-03-27T16:00:00.000Z'])

		// Each went to the Cloud API like a reply, from nobody, and none is the team's first response.
		const sent = await until(async () => {
			const replies = await wa.replies()
			return replies.every((reply) => reply.status === 'sent') && replies
		})
		expect(sent.map((reply) => [reply.body, reply.senderId])).toEqual(Array.from({ length: 3 }, () => ['We are closed, back at 9.', null]))
		const delivered = fake.received.filter((request) => request.path.endsWith(`/${wa.number.phoneNumberId}/messages`))
		expect(delivered.map((request) => (request.body as { text: { body: string } }).text.body)).toEqual(sent.map((reply) => reply.body))
		const row = await testDb().selectFrom('conversations').selectAll().where('id', '=', conversation.id).executeTakeFirstOrThrow()
		expect(row.firstResponseAt).toBeNull()
		expect(row.lastMessageDirection).toBe('incoming')
		await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Here now.' })
		expect(
			(await testDb().selectFrom('conversations').select('firstResponseAt').where('id', '=', conversation.id).executeTakeFirstOrThrow()).firstResponseAt,
		).not.toBeNull()
		expect((await reader.thread(conversation.number)).filter((message) => message.direction === 'outgoing' && message.kind === 'text')).toHaveLength(4)
	})

	test('the greeting goes with the first message of a new conversation only; a channel’s own hours override the workspace’s', async () => {
		await setWorkspace({ businessHours: never })
		const open = await connectWhatsApp('Own hours', {
			businessHours: allDay,
			autoReplies: { ...away('Closed'), greeting: { enabled: true, text: 'Welcome!' } },
		})
		await open.write('Hi', '2026-03-25T03:00:00Z')
		await open.write('Hi again', '2026-03-25T03:01:00Z')
		expect((await open.replies()).map((reply) => reply.body)).toEqual(['Welcome!'])

		// The same channel following the workspace (never open): the away message.
		await api.request('PATCH', channelsPath(`/${open.channel.id}`), { headers: team.owner.auth, body: { businessHours: null } })
		await open.write('Are you there?', '2026-03-25T03:02:00Z')
		expect((await open.replies()).map((reply) => reply.body)).toEqual(['Welcome!', 'Closed'])

		// And the other way round: the workspace open, the channel's own hours closed.
		await setWorkspace({ businessHours: allDay })
		const closed = await connectWhatsApp('Own closed', { businessHours: never, autoReplies: away('Closed here') })
		await closed.write('Hi', '2026-03-25T12:00:00Z')
		expect((await closed.replies()).map((reply) => reply.body)).toEqual(['Closed here'])
		// Off: nothing.
		const quiet = await connectWhatsApp('Quiet', { businessHours: never })
		await quiet.write('Hi', '2026-03-25T12:00:00Z')
		expect(await quiet.replies()).toEqual([])
	})
})

describe('auto-replies through the chat link', () => {
	test('the page says when the team is back; the away message and greeting are in the page’s language when translated', async () => {
		const zone = 'Asia/Tokyo'
		const today = DateTime.now().setZone(zone).startOf('day')
		// Open all day, but yesterday, today and tomorrow are holidays: back the day after tomorrow at midnight.
		const hours = { ...allDay, holidays: [-1, 0, 1].map((days) => today.plus({ days }).toISODate()!) }
		await setWorkspace({ businessHours: hours, timezone: zone })
		const slug = `hours-${crypto.randomBytes(4).toString('hex')}`
		const created = await api.request('POST', channelsPath(), { headers: team.owner.auth, body: { kind: 'link', name: 'Site', slug } })
		const id = (created.body as { id: string }).id
		await api.request('PATCH', channelsPath(`/${id}`), {
			headers: team.owner.auth,
			body: {
				autoReplies: {
					away: { enabled: true, text: 'We are away.', translations: { 'ar-eg': 'نحن غير متاحين.' } },
					greeting: { enabled: true, text: 'Hello!', translations: { 'fr-x': 'Bonjour !' } },
				},
			},
		})
		const page = await api.request('GET', `/v1/link/${slug}`)
		expect(page.body).toMatchObject({ closed: true, backAt: today.plus({ days: 2 }).toUTC().toISO({ suppressMilliseconds: false }), timezone: zone })

		const visitor = crypto.randomBytes(32).toString('base64url')
		const posted = await api.request('POST', `/v1/link/${slug}/messages`, {
			headers: { 'X-Visitor-Token': visitor, 'Accept-Language': 'ar-EG' },
			body: { body: 'مرحبا' },
		})
		expect(posted.status).toBe(201)
		const thread = await api.request('GET', `/v1/link/${slug}/messages`, { headers: { 'X-Visitor-Token': visitor } })
		// The greeting has no Arabic: its text; the away message in Arabic.
		expect((thread.body as { messages: Array<{ direction: string; body: string }> }).messages.map((message) => [message.direction, message.body])).toEqual([
			['incoming', 'مرحبا'],
			['outgoing', 'Hello!'],
			['outgoing', 'نحن غير متاحين.'],
		])

		await setWorkspace({ businessHours: null })
		expect((await api.request('GET', `/v1/link/${slug}`)).body).toMatchObject({ closed: false, backAt: null })
	})
})
