import crypto from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ratingOf } from '#api/satisfaction/surveys.ts'
import { customerMessage, pageWebhook, startMetaFake, type MetaFake } from '../fakes/meta.ts'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { inboundListReply, inboundText, startWhatsAppFake, type WhatsAppFake } from '../fakes/whatsapp.ts'
import { type ChannelReader, startChannelsApi, until } from './channels-fixtures.ts'
import { conversationsPath, type ConversationJson, type MessageJson } from './conversations-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { type Team } from './workspaces-fixtures.ts'

let telegram: TelegramFake, whatsapp: WhatsAppFake, meta: MetaFake
let api: TestApi, team: Team, reader: ChannelReader, close: () => Promise<void>
beforeAll(async () => {
	;[telegram, whatsapp, meta] = await Promise.all([startTelegramFake(), startWhatsAppFake(), startMetaFake()])
	;({ api, team, reader, close } = await startChannelsApi(
		{ TELEGRAM_API_URL: telegram.url, WHATSAPP_API_URL: whatsapp.url, META_GRAPH_URL: meta.url },
		'Satisfaction',
	))
})
afterAll(async () => {
	await close()
	await Promise.all([telegram.close(), whatsapp.close(), meta.close()])
})

const channelsPath = (rest = '') => `/v1/workspaces/${team.workspace.id}/channels${rest}`
const appSecret = '5a7b9c1d3e5f70819203a4b5c6d7e8f9'
type Fields = { message: string; details: { fields: Record<string, string[]> } }

async function switchSurvey(channelId: string, csatEnabled: boolean) {
	const answer = await api.request('PATCH', channelsPath(`/${channelId}`), { headers: team.admin.auth, body: { csatEnabled } })
	expect(answer.status, JSON.stringify(answer.body)).toBe(200)
	expect(answer.body).toMatchObject({ csatEnabled })
}

function setStatus(number: number, status: 'open' | 'resolved' | 'pending') {
	return api.request('PATCH', conversationsPath(team.workspace.id, `/${number}`), { headers: team.agent.auth, body: { status } })
}

async function resolve(number: number) {
	const answer = await setStatus(number, 'resolved')
	expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}

const surveysOf = (conversationId: string) =>
	testDb().selectFrom('satisfactionSurveys').selectAll().where('conversationId', '=', conversationId).orderBy('askedAt').orderBy('id').execute()

const statusOf = async (conversationId: string) =>
	(await testDb().selectFrom('conversations').select('status').where('id', '=', conversationId).executeTakeFirstOrThrow()).status

const activities = (messages: MessageJson[]) => messages.flatMap((message) => (message.activity ? [message.activity] : []))

test('a rating is one digit 1 to 5, Western, Arabic-Indic or Persian, spaces aside; nothing else is', () => {
	expect(['4', ' 5 ', '١', '٥', '۱', '۵', '\t3\n'].map(ratingOf)).toEqual([4, 5, 1, 5, 1, 5, 3])
	expect(['0', '6', '٠', '٦', '45', '4/5', 'four', '4 stars', '', '٤٤'].map(ratingOf)).toEqual(Array(10).fill(null))
})

describe('a chat link', () => {
	let slug: string, channelId: string
	beforeAll(async () => {
		slug = `rate-${crypto.randomBytes(4).toString('hex')}`
		const created = await api.request('POST', channelsPath(), { headers: team.owner.auth, body: { kind: 'link', name: 'Website', slug } })
		expect(created.status).toBe(201)
		channelId = (created.body as { id: string }).id
		expect(created.body).toMatchObject({ csatEnabled: false })
	})

	const newToken = () => crypto.randomBytes(32).toString('base64url')
	const visitor = (token: string, extra: Record<string, string> = {}) => ({
		'X-Visitor-Token': token,
		'X-Forwarded-For': `10.9.${crypto.randomInt(255)}.${crypto.randomInt(255)}`,
		...extra,
	})
	async function write(token: string, body: string, to = slug) {
		const answer = await api.request('POST', `/v1/link/${to}/messages`, { headers: visitor(token), body: { body } })
		expect(answer.status).toBe(201)
		return (answer.body as { conversationId: string }).conversationId
	}
	const numberOf = async (conversationId: string) =>
		(await testDb().selectFrom('conversations').select('number').where('id', '=', conversationId).executeTakeFirstOrThrow()).number
	const surveyShown = async (token: string) =>
		((await api.request('GET', `/v1/link/${slug}/messages`, { headers: visitor(token) })).body as { survey: unknown }).survey
	const rate = (token: string, body: unknown, language = 'en', to = slug) =>
		api.request('POST', `/v1/link/${to}/satisfaction`, { headers: visitor(token, { 'Accept-Language': language }), body })

	test('asks on resolution only while the channel asks, once per resolution, whichever way it is resolved', async () => {
		const token = newToken()
		const conversationId = await write(token, 'Where is my order?')
		const number = await numberOf(conversationId)
		await resolve(number)
		expect(await surveysOf(conversationId)).toEqual([])
		expect(await surveyShown(token)).toBeNull()

		// Owners and admins switch it; agents may not, and another workspace's channel is not found.
		expect((await api.request('PATCH', channelsPath(`/${channelId}`), { headers: team.agent.auth, body: { csatEnabled: true } })).status).toBe(403)
		const foreign = await api.request('PATCH', `/v1/workspaces/${team.elsewhere.id}/channels/${channelId}`, {
			headers: team.outsider.auth,
			body: { csatEnabled: true },
		})
		expect(foreign.status).toBe(404)
		expect((await api.request('PATCH', channelsPath(`/${channelId}`), { headers: team.admin.auth, body: { csatEnabled: 'yes' } })).status).toBe(400)
		await switchSurvey(channelId, true)

		await write(token, 'One more thing')
		await resolve(number)
		// Resolved again without a change in between: still the one survey.
		await resolve(number)
		let surveys = await surveysOf(conversationId)
		expect(surveys).toHaveLength(1)
		expect(surveys[0]).toMatchObject({ status: 'asked', channelId, questionMessageId: null, rating: null, teamId: null })
		expect(await surveyShown(token)).toEqual({ status: 'asked', rating: null })
		expect(activities(await reader.thread(number)).filter((activity) => activity.key === 'activity.satisfactionAsked')).toHaveLength(1)

		// Reopened by an agent, the survey ends; resolved in bulk, a new one is asked.
		expect((await setStatus(number, 'open')).status).toBe(200)
		const bulk = await api.request('POST', conversationsPath(team.workspace.id, '/bulk'), {
			headers: team.agent.auth,
			body: { numbers: [number], action: 'status', status: 'resolved' },
		})
		expect(bulk.status, JSON.stringify(bulk.body)).toBe(200)
		surveys = await surveysOf(conversationId)
		expect(surveys.map((survey) => survey.status)).toEqual(['closed', 'asked'])
		expect(surveys[0]?.closedAt).not.toBeNull()

		await switchSurvey(channelId, false)
		await write(token, 'Hello again')
		await resolve(number)
		expect((await surveysOf(conversationId)).map((survey) => survey.status)).toEqual(['closed', 'closed'])
	})

	test('the page’s form rates once, 1 to 5 with a comment; bad input is refused in the visitor’s language; a new message ends the survey', async () => {
		await switchSurvey(channelId, true)
		const token = newToken()
		const conversationId = await write(token, 'Bonjour')
		const number = await numberOf(conversationId)
		// Nothing to rate before the resolution.
		const early = await rate(token, { rating: 5 }, 'fr')
		expect(early.status).toBe(409)
		expect((early.body as Fields).message).toMatch(/ne peut plus être notée/)
		await resolve(number)

		// Out of range, not a whole number, not a number, or missing: the schema's own words each time.
		for (const body of [{ rating: 7 }, { rating: 0 }, { rating: 2.5 }, { rating: '4' }, {}]) {
			const refused = await rate(token, body, 'fr')
			expect(refused.status, JSON.stringify(body)).toBe(400)
			expect((refused.body as Fields).details.fields.rating).toEqual(['Choisissez une note de 1 à 5.'])
		}
		const long = await rate(token, { rating: 4, comment: 'x'.repeat(5000) })
		expect(long.status).toBe(400)
		expect((long.body as Fields).details.fields.comment).toHaveLength(1)
		expect((await rate(token, { rating: 4, extra: true })).status).toBe(400)
		expect((await api.request('POST', `/v1/link/${slug}/satisfaction`, { headers: { 'X-Forwarded-For': '10.8.0.1' }, body: { rating: 4 } })).status).toBe(400)
		// Another visitor has nothing to rate; nor has this one on another workspace's link.
		expect((await rate(newToken(), { rating: 1 })).status).toBe(409)
		expect((await surveysOf(conversationId))[0]).toMatchObject({ status: 'asked', rating: null })

		const rated = await rate(token, { rating: 4, comment: '  Rapide et aimable  ' })
		expect(rated.status, JSON.stringify(rated.body)).toBe(200)
		expect(rated.body).toEqual({ survey: { status: 'commented', rating: 4 } })
		expect(await surveyShown(token)).toEqual({ status: 'commented', rating: 4 })
		const [survey] = await surveysOf(conversationId)
		expect(survey).toMatchObject({ status: 'commented', rating: 4, comment: 'Rapide et aimable' })
		expect(survey?.answeredAt).not.toBeNull()
		expect(await statusOf(conversationId)).toBe('resolved')
		expect(activities(await reader.thread(number)).slice(-2)).toEqual([
			{ key: 'activity.satisfactionRated', values: { rating: '4' } },
			{ key: 'activity.satisfactionCommented', values: { comment: 'Rapide et aimable' } },
		])

		const again = await rate(token, { rating: 1 }, 'ar')
		expect(again.status).toBe(409)
		expect((again.body as Fields).message).toMatch(/لم يعد من الممكن/)
		expect((await surveysOf(conversationId))[0]).toMatchObject({ rating: 4 })

		// Writing again reopens the conversation as always, and the page no longer shows the thanks.
		await write(token, 'Une autre question')
		expect(await statusOf(conversationId)).toBe('open')
		expect(await surveyShown(token)).toBeNull()
		expect((await surveysOf(conversationId))[0]).toMatchObject({ status: 'commented', rating: 4 })
	})

	test('a rating alone; a survey older than 7 days can no longer be answered', async () => {
		await switchSurvey(channelId, true)
		const token = newToken()
		const conversationId = await write(token, 'Hi')
		await resolve(await numberOf(conversationId))
		expect((await rate(token, { rating: 2, comment: '   ' })).body).toEqual({ survey: { status: 'rated', rating: 2 } })
		expect((await surveysOf(conversationId))[0]).toMatchObject({ status: 'rated', rating: 2, comment: null })
		expect((await rate(token, { rating: 3 })).status).toBe(409)

		const late = newToken()
		const lateConversation = await write(late, 'Hi')
		await resolve(await numberOf(lateConversation))
		await sql`update satisfaction_surveys set asked_at = now() - interval '7 days 1 minute' where conversation_id = ${lateConversation}`.execute(testDb())
		expect(await surveyShown(late)).toBeNull()
		expect((await rate(late, { rating: 5 })).status).toBe(409)
		expect((await surveysOf(lateConversation))[0]).toMatchObject({ status: 'closed', rating: null })
	})
})

/** A messaging channel's conversation, resolved with the survey asked: the question the provider was given to send. */
async function resolvedWithQuestion(channelId: string, sentQuestion: () => Promise<string>) {
	const conversation = await reader.firstConversation(channelId)
	await resolve(conversation.number)
	const question = await sentQuestion()
	const [survey] = await surveysOf(conversation.id)
	expect(survey).toMatchObject({ status: 'asked', questionMessageId: expect.anything() })
	// The question is a message of the thread, sent like a reply.
	const sent = await until(async () =>
		(await reader.thread(conversation.number)).find((message) => message.id === String(survey!.questionMessageId) && message.status === 'sent'),
	)
	expect(sent.body).toBe(question)
	return conversation
}

async function threadOnceHas(number: number, count: number) {
	return until(async () => {
		const messages = await reader.thread(number)
		return messages.filter((message) => message.direction === 'incoming').length >= count ? messages : undefined
	})
}

describe('Telegram', () => {
	test('the question in the workspace’s language; an Arabic-Indic digit rates, the next message comments, neither reopens; then a message reopens', async () => {
		await testDb().updateTable('workspaces').set({ defaultLocale: 'fr-x' }).where('id', '=', team.workspace.id).execute()
		const bot = telegram.addBot()
		const created = await api.request('POST', channelsPath(), {
			headers: team.owner.auth,
			body: { kind: 'telegram', name: 'Bot', credentials: { botToken: bot.token } },
		})
		const channelId = (created.body as { id: string }).id
		await switchSurvey(channelId, true)
		const chat = { id: 555_310_001, firstName: 'ليلى' }
		await telegram.postUpdate(bot.token, textUpdate(chat, 'مرحبا'), { origin: api.url })
		const conversation = await resolvedWithQuestion(channelId, async () => {
			const sent = await telegram.waitFor((request) => request.path === `/bot${bot.token}/sendMessage`)
			const text = (sent.body as { text: string }).text
			expect(text).toMatch(/^Comment évaluez-vous notre aide \?.*1.*5/)
			return text
		})
		await testDb().updateTable('workspaces').set({ defaultLocale: 'en-us' }).where('id', '=', team.workspace.id).execute()

		await telegram.postUpdate(bot.token, textUpdate(chat, ' ٤ '), { origin: api.url })
		await threadOnceHas(conversation.number, 2)
		expect(await statusOf(conversation.id)).toBe('resolved')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'rated', rating: 4 })

		await telegram.postUpdate(bot.token, textUpdate(chat, 'خدمة سريعة، شكرًا'), { origin: api.url })
		const thread = await threadOnceHas(conversation.number, 3)
		expect(await statusOf(conversation.id)).toBe('resolved')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'commented', rating: 4, comment: 'خدمة سريعة، شكرًا' })
		// Both are in the thread as the customer wrote them, each with its line.
		expect(thread.filter((message) => message.direction === 'incoming').map((message) => message.body)).toEqual(['مرحبا', ' ٤ ', 'خدمة سريعة، شكرًا'])
		expect(activities(thread).map((activity) => activity.key)).toEqual(
			expect.arrayContaining(['activity.satisfactionAsked', 'activity.satisfactionRated', 'activity.satisfactionCommented']),
		)

		// The survey is complete: the next message is an ordinary one.
		await telegram.postUpdate(bot.token, textUpdate(chat, 'Another question'), { origin: api.url })
		await threadOnceHas(conversation.number, 4)
		expect(await statusOf(conversation.id)).toBe('open')
	})

	test('a message other than a digit reopens and closes the survey; after 7 days a digit is an ordinary message', async () => {
		const bot = telegram.addBot()
		const created = await api.request('POST', channelsPath(), {
			headers: team.owner.auth,
			body: { kind: 'telegram', name: 'Bot 2', credentials: { botToken: bot.token } },
		})
		const channelId = (created.body as { id: string }).id
		await switchSurvey(channelId, true)
		const chat = { id: 555_310_002, firstName: 'Karim' }
		await telegram.postUpdate(bot.token, textUpdate(chat, 'Hello'), { origin: api.url })
		const conversation = await resolvedWithQuestion(channelId, async () => {
			const sent = await telegram.waitFor((request) => request.path === `/bot${bot.token}/sendMessage`)
			return (sent.body as { text: string }).text
		})
		await telegram.postUpdate(bot.token, textUpdate(chat, 'It still does not work'), { origin: api.url })
		await threadOnceHas(conversation.number, 2)
		expect(await statusOf(conversation.id)).toBe('open')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'closed', rating: null })

		await resolve(conversation.number)
		await sql`update satisfaction_surveys set asked_at = now() - interval '8 days' where conversation_id = ${conversation.id} and status = 'asked'`.execute(
			testDb(),
		)
		await telegram.postUpdate(bot.token, textUpdate(chat, '5'), { origin: api.url })
		await threadOnceHas(conversation.number, 3)
		expect(await statusOf(conversation.id)).toBe('open')
		expect((await surveysOf(conversation.id)).map((survey) => [survey.status, survey.rating])).toEqual([
			['closed', null],
			['closed', null],
		])
	})
})

describe('WhatsApp', () => {
	type Row = { id: string; title: string }
	type Sent = {
		to: string
		type: string
		text?: { body: string }
		interactive?: { type: string; body: { text: string }; action: { button: string; sections: Array<{ rows: Row[] }> } }
	}

	/** A WhatsApp number with its channel asking for ratings, and what its customer sends it. */
	async function surveyedNumber(customer: { waId: string; name: string }) {
		const number = whatsapp.addNumber()
		const created = await api.request('POST', channelsPath(), {
			headers: team.owner.auth,
			body: {
				kind: 'whatsapp',
				name: `WhatsApp ${number.phoneNumberId}`,
				settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
				credentials: { accessToken: number.accessToken, appSecret },
			},
		})
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		const channel = created.body as { id: string; webhook: { url: string } }
		const webhook = `${api.url}${new URL(channel.webhook.url).pathname}`
		await switchSurvey(channel.id, true)
		const post = async (payload: unknown) => expect((await whatsapp.postWebhook(webhook, appSecret, payload)).status).toBe(200)
		return {
			channelId: channel.id,
			write: (text: string) => post(inboundText(number.phoneNumberId, customer, text)),
			tap: (row: Row, listWamid: string) => post(inboundListReply(number.phoneNumberId, customer, row, listWamid)),
			/** The survey's question as the Cloud API got it (the first message of `type` to this number). */
			sent: async (type: 'text' | 'interactive') =>
				(
					await whatsapp.waitFor(
						(request) => request.method === 'POST' && request.path.endsWith(`/${number.phoneNumberId}/messages`) && (request.body as Sent).type === type,
					)
				).body as Sent,
		}
	}

	const questionOf = async (conversationId: string) => {
		const [survey] = await surveysOf(conversationId)
		return testDb().selectFrom('messages').selectAll().where('id', '=', String(survey!.questionMessageId)).executeTakeFirstOrThrow()
	}
	const incoming = (messages: MessageJson[]) => messages.filter((message) => message.direction === 'incoming').map((message) => message.body)

	test('inside the customer’s window the question is a list of the ratings in the workspace’s language; a tap rates, the next text comments, neither reopens', async () => {
		const customer = { waId: '201001234567', name: 'Mona' }
		const number = await surveyedNumber(customer)
		await number.write('Bonjour')
		await testDb().updateTable('workspaces').set({ defaultLocale: 'fr-x' }).where('id', '=', team.workspace.id).execute()
		let list: Sent
		const conversation = await resolvedWithQuestion(number.channelId, async () => {
			list = await number.sent('interactive')
			return list.interactive!.body.text
		}).finally(() => testDb().updateTable('workspaces').set({ defaultLocale: 'en-us' }).where('id', '=', team.workspace.id).execute())
		const question = await questionOf(conversation.id)
		expect(list!).toMatchObject({ to: customer.waId, type: 'interactive', interactive: { type: 'list', action: { button: 'Noter notre aide' } } })
		expect(list!.interactive!.body.text).toMatch(/^Comment évaluez-vous notre aide \? Choisissez une note dans la liste/)
		expect(list!.interactive!.action.sections).toEqual([
			{
				rows: [
					{ id: `satisfaction:${question.id}:5`, title: '5 — Très bien' },
					{ id: `satisfaction:${question.id}:4`, title: '4 — Bien' },
					{ id: `satisfaction:${question.id}:3`, title: '3 — Correct' },
					{ id: `satisfaction:${question.id}:2`, title: '2 — Décevant' },
					{ id: `satisfaction:${question.id}:1`, title: '1 — Très décevant' },
				],
			},
		])
		expect(question.externalId).toMatch(/^wamid\./)

		await number.tap(list!.interactive!.action.sections[0]!.rows[1]!, question.externalId!)
		await threadOnceHas(conversation.number, 2)
		expect(await statusOf(conversation.id)).toBe('resolved')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'rated', rating: 4 })

		await number.write('Rapide et aimable')
		const thread = await threadOnceHas(conversation.number, 3)
		expect(await statusOf(conversation.id)).toBe('resolved')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'commented', rating: 4, comment: 'Rapide et aimable' })
		// The thread shows the row the customer tapped as they saw it.
		expect(incoming(thread)).toEqual(['Bonjour', '4 — Bien', 'Rapide et aimable'])
		expect(activities(thread).slice(-2)).toEqual([
			{ key: 'activity.satisfactionRated', values: { rating: '4' } },
			{ key: 'activity.satisfactionCommented', values: { comment: 'Rapide et aimable' } },
		])
	})

	test('a typed digit still rates a listed survey, a tap before the comment changes it; a row of an older survey’s list is an ordinary message', async () => {
		const number = await surveyedNumber({ waId: '201001234568', name: 'Samir' })
		await number.write('Hi')
		let list: Sent
		const conversation = await resolvedWithQuestion(number.channelId, async () => {
			list = await number.sent('interactive')
			return list.interactive!.body.text
		})
		const question = await questionOf(conversation.id)
		const rows = list!.interactive!.action.sections[0]!.rows
		await number.write('۵')
		await threadOnceHas(conversation.number, 2)
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'rated', rating: 5 })
		await number.tap(rows[3]!, question.externalId!)
		await threadOnceHas(conversation.number, 3)
		expect(await statusOf(conversation.id)).toBe('resolved')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'rated', rating: 2 })

		// Reopened (which ends the rated survey, its rating kept) and resolved again: the first list's rows rate nothing, and a tap on one reopens like any message.
		expect((await setStatus(conversation.number, 'open')).status).toBe(200)
		await resolve(conversation.number)
		await number.tap(rows[0]!, question.externalId!)
		await threadOnceHas(conversation.number, 4)
		expect(await statusOf(conversation.id)).toBe('open')
		expect((await surveysOf(conversation.id)).map((survey) => [survey.status, survey.rating])).toEqual([
			['closed', 2],
			['closed', null],
		])
	})

	test('outside the customer’s 24-hour window the question is the text naming the digits, as before; a digit rates', async () => {
		const number = await surveyedNumber({ waId: '201001234569', name: 'Hoda' })
		await number.write('Hello')
		const { id } = await reader.firstConversation(number.channelId)
		await sql`update messages set created_at = now() - interval '24 hours 1 minute' where conversation_id = ${id} and direction = 'incoming'`.execute(testDb())
		const conversation = await resolvedWithQuestion(number.channelId, async () => {
			const sent = await number.sent('text')
			expect(sent.text!.body).toMatch(/^How would you rate our help\? Reply with one digit/)
			return sent.text!.body
		})
		expect(
			whatsapp.received.filter(
				(request) =>
					request.path.endsWith('/messages') && (request.body as Sent | null)?.to === '201001234569' && (request.body as Sent).type === 'interactive',
			),
		).toEqual([])
		await number.write('3')
		await threadOnceHas(conversation.number, 2)
		expect(await statusOf(conversation.id)).toBe('resolved')
		expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'rated', rating: 3 })
	})

	test('the fake Cloud API refuses a list beyond its limits as the real one does', async () => {
		const number = whatsapp.addNumber()
		const send = (interactive: unknown) =>
			fetch(`${whatsapp.url}/v21.0/${number.phoneNumberId}/messages`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${number.accessToken}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '201001234570', type: 'interactive', interactive }),
			})
		const list = (rows: Row[], button = 'Rate') => ({ type: 'list', body: { text: 'How was it?' }, action: { button, sections: [{ rows }] } })
		const rows = (count: number, title = (n: number) => `${n} stars`) => Array.from({ length: count }, (_, n) => ({ id: `row-${n}`, title: title(n) }))
		expect((await send(list(rows(10)))).status).toBe(200)
		for (const [interactive, details] of [
			[list(rows(11)), 'Invalid rows count. Min allowed rows: 1, Max allowed rows: 10'],
			[list(rows(2, () => 'x'.repeat(25))), 'Row title is too long. Max length is 24'],
			[list(rows(2), 'A button of 21 chars.'), 'Button title length invalid. Min length: 1, Max length: 20'],
			[
				list([
					{ id: 'same', title: 'One' },
					{ id: 'same', title: 'Two' },
				]),
				'Row id must be unique: same',
			],
		] as const) {
			const refused = await send(interactive)
			expect(refused.status).toBe(400)
			expect(await refused.json()).toEqual({
				error: {
					message: '(#131009) Parameter value is not valid',
					type: 'OAuthException',
					code: 131009,
					error_data: { messaging_product: 'whatsapp', details },
					fbtrace_id: expect.any(String),
				},
			})
		}
	})
})

test.each(['messenger', 'instagram'] as const)('%s: the question goes through the Send API; a digit rates', async (kind) => {
	const page = meta.addPage()
	const created = await api.request('POST', channelsPath(), {
		headers: team.owner.auth,
		body: { kind, name: `${kind} page`, settings: { pageId: page.pageId }, credentials: { accessToken: page.accessToken, appSecret } },
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	const channel = created.body as { id: string; webhook: { url: string } }
	const webhook = `${api.url}${new URL(channel.webhook.url).pathname}`
	const account = kind === 'instagram' ? page.instagramAccountId! : page.pageId
	const post = (text: string) =>
		meta.postWebhook(webhook, appSecret, pageWebhook(kind === 'instagram' ? 'instagram' : 'page', account, customerMessage(account, '7001234567', text)))
	await switchSurvey(channel.id, true)
	await post('Hello')
	const conversation: ConversationJson = await resolvedWithQuestion(channel.id, async () => {
		const sent = await meta.waitFor((request) => request.method === 'POST' && request.path.endsWith(`/${page.pageId}/messages`))
		return (sent.body as { message: { text: string } }).message.text
	})
	await post('3')
	await threadOnceHas(conversation.number, 2)
	expect(await statusOf(conversation.id)).toBe('resolved')
	expect((await surveysOf(conversation.id))[0]).toMatchObject({ status: 'rated', rating: 3 })
})

describe('the reports', () => {
	type Figures = { asked: number; rated: number; satisfied: number; csat: number | null; responseRate: number | null; averageRating: number | null }
	type Report = {
		overall: Figures
		agents: Array<Figures & { userId: string | null }>
		teams: Array<Figures & { teamId: string | null }>
		channels: Array<Figures & { channelId: string }>
	}

	test('CSAT is the share of 4 and 5 among ratings, the response rate rated / asked, by agent, team and channel; CSV too; another workspace sees none of it', async () => {
		const workspaceId = team.workspace.id
		const db = testDb()
		// A workspace of its own figures: a team, two link channels, surveys written as the resolutions left them.
		const [sales] = await db
			.insertInto('teams')
			.values({ workspaceId, name: `Sales ${crypto.randomBytes(3).toString('hex')}` })
			.returning('id')
			.execute()
		const channelOf = async (name: string) =>
			(
				await db
					.insertInto('channels')
					.values({ workspaceId, kind: 'link', name, slug: `r-${crypto.randomBytes(5).toString('hex')}` })
					.returning('id')
					.executeTakeFirstOrThrow()
			).id
		const [web, shop] = [await channelOf('Reports web'), await channelOf('Reports shop')]
		const contact = await db.insertInto('contacts').values({ workspaceId, name: 'Rated', avatarColor: '#123456' }).returning('id').executeTakeFirstOrThrow()
		// [channel, agent, team, rating]: the agent has 4 (ratings 5, 4, 2, none), the admin 2 (3, none).
		const surveys: Array<[string, string, string | null, number | null]> = [
			[web, team.agent.user.id, sales!.id, 5],
			[web, team.agent.user.id, sales!.id, 4],
			[shop, team.agent.user.id, null, 2],
			[shop, team.agent.user.id, null, null],
			[web, team.admin.user.id, sales!.id, 3],
			[web, team.admin.user.id, null, null],
		]
		for (const [index, [channelId, assigneeId, teamId, rating]] of surveys.entries()) {
			const conversation = await db
				.insertInto('conversations')
				.values({ workspaceId, number: 9000 + index, contactId: contact.id, channelId, status: 'resolved' })
				.returning('id')
				.executeTakeFirstOrThrow()
			await db
				.insertInto('satisfactionSurveys')
				.values({
					workspaceId,
					conversationId: conversation.id,
					channelId,
					contactId: contact.id,
					assigneeId,
					teamId,
					rating,
					status: rating ? 'rated' : 'closed',
					answeredAt: rating ? new Date() : null,
				})
				.execute()
		}
		const read = async (query: string, auth = team.owner.auth) => {
			const answer = await api.request('GET', `/v1/workspaces/${workspaceId}/reports/satisfaction?preset=today&${query}`, { headers: auth })
			expect(answer.status, JSON.stringify(answer.body)).toBe(200)
			return answer.body as Report
		}
		const web1 = await read(`channelId=${web}`)
		expect(web1.overall).toEqual({ asked: 4, rated: 3, satisfied: 2, csat: 2 / 3, responseRate: 3 / 4, averageRating: 4 })
		const shop1 = await read(`channelId=${shop}`)
		expect(shop1.overall).toMatchObject({ asked: 2, rated: 1, satisfied: 0, csat: 0, responseRate: 0.5 })
		const bySales = await read(`teamId=${sales!.id}`)
		expect(bySales.overall).toMatchObject({ asked: 3, rated: 3, satisfied: 2, responseRate: 1 })
		expect(bySales.agents.map((row) => [row.userId, row.asked, row.rated, row.satisfied])).toEqual([
			[team.agent.user.id, 2, 2, 2],
			[team.admin.user.id, 1, 1, 0],
		])
		const all = await read('')
		const mine = (rows: Array<Figures & { channelId?: string }>) => rows.filter((row) => row.channelId === web || row.channelId === shop)
		expect(mine(all.channels).map((row) => [row.channelId, row.asked, row.rated, row.satisfied])).toEqual([
			[web, 4, 3, 2],
			[shop, 2, 1, 0],
		])
		expect(all.teams.find((row) => row.teamId === sales!.id)).toMatchObject({ asked: 3, rated: 3, satisfied: 2 })
		// An agent reads their own surveys only.
		const own = await read(`channelId=${web}`, team.agent.auth)
		expect(own.overall).toMatchObject({ asked: 2, rated: 2, satisfied: 2, csat: 1 })
		expect(own.agents.map((row) => row.userId)).toEqual([team.agent.user.id])
		// Another workspace's channel is refused beside its field; its owner reads nothing of these.
		const foreign = await api.request('GET', `/v1/workspaces/${team.elsewhere.id}/reports/satisfaction?preset=today&channelId=${web}`, {
			headers: team.outsider.auth,
		})
		expect(foreign.status).toBe(422)
		const theirs = await api.request('GET', `/v1/workspaces/${team.elsewhere.id}/reports/satisfaction?preset=today`, { headers: team.outsider.auth })
		expect((theirs.body as Report).overall.asked).toBe(0)
		expect((await api.request('GET', `/v1/workspaces/${workspaceId}/reports/satisfaction`, { headers: team.outsider.auth })).status).toBe(404)

		const csv = await api.request('GET', `/v1/workspaces/${workspaceId}/reports/export?table=satisfaction&preset=today&channelId=${web}`, {
			headers: team.owner.auth,
		})
		expect(csv.status).toBe(200)
		const lines = String(csv.body).trim().split(/\r?\n/)
		expect(lines[0]).toBe('by,id,name,asked,rated,rated_4_or_5,csat_percent,response_rate_percent,average_rating')
		expect(lines[1]).toBe('all,,,4,3,2,66.7,75.0,4')
		expect(lines).toContain(`channel,${web},Reports web,4,3,2,66.7,75.0,4`)
	})
})

describe('a contact’s ratings', () => {
	type ContactSatisfaction = {
		rated: number
		averageRating: number | null
		latest: Array<{ rating: number; comment: string | null; conversation: { number: number }; answeredAt: string }>
	}
	const read = (contactId: string, auth: Record<string, string>, workspaceId = team.workspace.id) =>
		api.request('GET', `/v1/workspaces/${workspaceId}/contacts/${contactId}/satisfaction`, { headers: auth })
	const setRule = async (agentsSeeOwnTeams: boolean) => {
		const answer = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { headers: team.owner.auth, body: { agentsSeeOwnTeams } })
		expect(answer.status, JSON.stringify(answer.body)).toBe(200)
	}

	test('count, average and the latest five, newest first; an agent narrowed to their teams reads only their conversations’ ratings; another workspace reads none', async () => {
		const workspaceId = team.workspace.id
		const db = testDb()
		const [support] = await db
			.insertInto('teams')
			.values({ workspaceId, name: `Support ${crypto.randomBytes(3).toString('hex')}` })
			.returning('id')
			.execute()
		await db.insertInto('teamMembers').values({ teamId: support!.id, workspaceId, userId: team.agent.user.id }).execute()
		const channel = await db
			.insertInto('channels')
			.values({ workspaceId, kind: 'link', name: 'Ratings web', slug: `c-${crypto.randomBytes(5).toString('hex')}` })
			.returning('id')
			.executeTakeFirstOrThrow()
		const contact = await db.insertInto('contacts').values({ workspaceId, name: 'Rater', avatarColor: '#123456' }).returning('id').executeTakeFirstOrThrow()
		const unrated = await db.insertInto('contacts').values({ workspaceId, name: 'Silent', avatarColor: '#654321' }).returning('id').executeTakeFirstOrThrow()
		// [rating, comment, team, assignee], oldest first; the last is asked and never answered.
		const surveys: Array<[number | null, string | null, string | null, string | null]> = [
			[1, 'بطيء جدًا', null, null],
			[2, null, support!.id, null],
			[5, null, null, team.agent.user.id],
			[3, null, null, null],
			[4, 'Rapide', support!.id, null],
			[5, 'Great', null, team.admin.user.id],
			[null, null, support!.id, null],
		]
		const numbers: number[] = []
		for (const [index, [rating, comment, teamId, assigneeId]] of surveys.entries()) {
			const conversation = await db
				.insertInto('conversations')
				.values({ workspaceId, number: 9100 + index, contactId: contact.id, channelId: channel.id, status: 'resolved', teamId, assigneeId })
				.returning(['id', 'number'])
				.executeTakeFirstOrThrow()
			numbers.push(conversation.number)
			await db
				.insertInto('satisfactionSurveys')
				.values({
					workspaceId,
					conversationId: conversation.id,
					channelId: channel.id,
					contactId: contact.id,
					rating,
					comment,
					status: rating ? (comment ? 'commented' : 'rated') : 'asked',
					answeredAt: rating ? new Date(Date.UTC(2026, 10, 1 + index)) : null,
				})
				.execute()
		}

		const all = await read(contact.id, team.agent.auth)
		expect(all.status, JSON.stringify(all.body)).toBe(200)
		expect(all.body).toEqual({
			rated: 6,
			averageRating: 3.33,
			latest: [5, 4, 3, 2, 1].map((index) => ({
				rating: surveys[index]![0],
				comment: surveys[index]![1],
				conversation: { number: numbers[index] },
				answeredAt: new Date(Date.UTC(2026, 10, 1 + index)).toISOString(),
			})),
		})
		expect((await read(unrated.id, team.agent.auth)).body).toEqual({ rated: 0, averageRating: null, latest: [] })

		// Narrowed to their teams, the agent reads the ratings of their team's conversations and of those assigned to them.
		await setRule(true)
		try {
			const narrowed = (await read(contact.id, team.agent.auth)).body as ContactSatisfaction
			expect(narrowed).toMatchObject({ rated: 3, averageRating: 3.67 })
			expect(narrowed.latest.map((rating) => rating.conversation.number)).toEqual([numbers[4], numbers[2], numbers[1]])
			expect(JSON.stringify(narrowed)).not.toContain('Great')
			// The inbox's view of one of the contact's conversations carries the same, as the reader sees it.
			const view = await api.request('GET', conversationsPath(workspaceId, `/${numbers[4]}/view`), { headers: team.agent.auth })
			expect(view.status, JSON.stringify(view.body)).toBe(200)
			expect((view.body as { contactSatisfaction: ContactSatisfaction }).contactSatisfaction).toEqual(narrowed)
			expect(((await read(contact.id, team.otherAgent.auth)).body as ContactSatisfaction).rated).toBe(0)
			expect(((await read(contact.id, team.admin.auth)).body as ContactSatisfaction).rated).toBe(6)
		} finally {
			await setRule(false)
		}

		// Another workspace: its owner cannot read these through theirs, nor is this workspace theirs; a stranger's contact is not found here.
		const outsider = await read(contact.id, team.outsider.auth, team.elsewhere.id)
		expect(outsider.status).toBe(404)
		expect(JSON.stringify(outsider.body)).not.toContain('Rapide')
		expect((await read(contact.id, team.outsider.auth)).status).toBe(404)
		const theirs = await db
			.insertInto('contacts')
			.values({ workspaceId: team.elsewhere.id, name: 'Theirs', avatarColor: '#000000' })
			.returning('id')
			.executeTakeFirstOrThrow()
		expect((await read(theirs.id, team.agent.auth)).status).toBe(404)
		expect((await read('not-a-uuid', team.agent.auth)).status).toBe(404)
	})
})
