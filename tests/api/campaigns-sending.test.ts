import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { messageEvent, publishEvents } from '#api/conversations/events.ts'
import { insertText, latestConversation } from '#api/conversations/inbound.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { addAudience, addLabel, campaignAction, campaignsPath, createCampaign, recipientsOf } from './campaigns-fixtures.ts'
import { channelReader, until } from './channels-fixtures.ts'
import { createLinkChannel, customerWrites, type Published, recordingRealtime } from './conversations-fixtures.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

let fake: TelegramFake
let api: TestApi
let team: Team
let bot: { token: string }
let channelId: string
const runners: JobRunner[] = []
const published: Published[] = []
let nextChat = 810_000_000

/** A job runner as each app process starts one, on the same database. */
async function startRunner() {
	const runner = await startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: jobHandlers,
		log: quiet,
		config: api.config,
		realtime: recordingRealtime(published),
		pollInterval: 100,
	})
	runners.push(runner)
	return runner
}

async function stopRunner(runner: JobRunner) {
	await runner.stop()
	runners.splice(runners.indexOf(runner), 1)
}

/** The chat ids the fake Telegram was asked to send to, in order. */
const sentTo = () =>
	fake.received
		.filter((request) => request.path === `/bot${bot.token}/sendMessage`)
		.map((request) => Number((request.body as { chat_id: number | string }).chat_id))

/** `count` contacts with a Telegram chat each, labelled with a fresh label. */
async function telegramAudience(count: number, name: string) {
	const label = await addLabel(team.workspace.id, name)
	const chats = Array.from({ length: count }, () => nextChat++)
	const contacts = await addAudience(
		team.workspace.id,
		channelId,
		chats.map((chat, index) => ({ name: `${name} ${index + 1}`, labels: [label.id], identity: String(chat) })),
	)
	return { label, chats, contacts }
}

async function startCampaign(labelId: string, extra: Record<string, unknown> = {}) {
	const campaign = await createCampaign(api, team.admin.auth, team.workspace.id, {
		name: `Campaign ${labelId.slice(0, 6)}`,
		channelId,
		labelsIn: [labelId],
		body: 'Hello {{name}}',
		...extra,
	})
	return campaignAction(api, team.admin.auth, team.workspace.id, campaign.id, 'start')
}

const statusOf = async (campaignId: string) =>
	(await testDb().selectFrom('campaigns').select('status').where('id', '=', campaignId).executeTakeFirstOrThrow()).status
const completed = (campaignId: string) => until(async () => (await statusOf(campaignId)) === 'completed')

beforeAll(async () => {
	fake = await startTelegramFake()
	api = await startApi({ TELEGRAM_API_URL: fake.url })
	team = await createTeam('Campaign sending')
	bot = fake.addBot()
	const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
		headers: team.admin.auth,
		body: { kind: 'telegram', name: 'Broadcast', credentials: { botToken: bot.token } },
	})
	expect(created.status).toBe(201)
	channelId = (created.body as { id: string }).id
})

afterAll(async () => {
	await Promise.all(runners.map((runner) => runner.stop()))
	await api.close()
	await fake.close()
})

describe('exactly once', () => {
	test('the only process stops mid-campaign, two others take over: every recipient received the message once', { timeout: 40_000 }, async () => {
		const { label, chats } = await telegramAudience(150, 'Once')
		const first = await startRunner()
		const campaign = await startCampaign(label.id, { ratePerSecond: 40 })
		expect(campaign).toMatchObject({ status: 'running', recipientCount: 150 })
		await until(async () => sentTo().filter((chat) => chats.includes(chat)).length >= 40)
		await stopRunner(first)
		const halfway = sentTo().filter((chat) => chats.includes(chat)).length
		expect(halfway).toBeLessThan(150)
		expect((await recipientsOf(campaign.id)).filter((recipient) => recipient.status === 'queued').length).toBe(150 - halfway)

		await Promise.all([startRunner(), startRunner()])
		await completed(campaign.id)
		const received = sentTo().filter((chat) => chats.includes(chat))
		expect(received.length).toBe(150)
		expect(new Set(received).size).toBe(150)
		const recipients = await recipientsOf(campaign.id)
		expect(recipients.every((recipient) => recipient.status === 'sent' && recipient.messageId)).toBe(true)
		// Each message is in the contact's conversation, sent, with Telegram's id.
		const messages = await testDb()
			.selectFrom('messages')
			.select(['status', 'externalId', 'body'])
			.where(
				'id',
				'in',
				recipients.map((recipient) => recipient.messageId!),
			)
			.execute()
		expect(messages.every((message) => message.status === 'sent' && message.externalId && message.body.startsWith('Hello Once '))).toBe(true)
		// Live totals: ids only.
		await expect
			.poll(() => published)
			.toContainEqual({
				channel: `private-workspace-${team.workspace.id}`,
				event: 'campaign.updated',
				data: { workspaceId: team.workspace.id, campaignId: campaign.id, seq: expect.any(Number) },
			})
		const answer = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}`), { headers: team.agent.auth })
		expect(answer.body).toMatchObject({ status: 'completed', processed: 150, totals: expect.objectContaining({ sent: 150, queued: 0 }) })
	})

	test('a recipient left "sending" by a process that died is reconciled: not sent again once written, queued again if not', async () => {
		const { label, chats, contacts } = await telegramAudience(4, 'Crash')
		// The test before leaves its processes running.
		await Promise.all([...runners].map(stopRunner))
		// Started while no process runs jobs; then, as if one had claimed two recipients and died: the
		// first's message written (its call may have left), the second's not yet (never sent).
		const campaign = await startCampaign(label.id)
		const channel = await testDb().selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirstOrThrow()
		const identity = await testDb().selectFrom('contactIdentities').selectAll().where('contactId', '=', contacts[0]!.id).executeTakeFirstOrThrow()
		const { conversation } = await latestConversation(testDb(), channel, identity)
		const written = await insertText(testDb(), conversation, { direction: 'outgoing', body: 'Hello Crash 1', externalId: null, status: 'pending' })
		const claim = { status: 'sending' as const, claimedAt: sql<Date>`now() - interval '5 minutes'` }
		await testDb()
			.updateTable('campaignRecipients')
			.set({ ...claim, conversationId: conversation.id, messageId: written.id })
			.where('campaignId', '=', campaign.id)
			.where('contactId', '=', contacts[0]!.id)
			.execute()
		await testDb().updateTable('campaignRecipients').set(claim).where('campaignId', '=', campaign.id).where('contactId', '=', contacts[1]!.id).execute()
		await startRunner()
		await completed(campaign.id)
		expect(
			sentTo()
				.filter((chat) => chats.includes(chat))
				.sort(),
		).toEqual([chats[1], chats[2], chats[3]].sort())
		const unknown = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}/recipients?status=failed`), {
			headers: { ...team.agent.auth, 'Accept-Language': 'fr-x' },
		})
		expect(unknown.body).toMatchObject({ total: 1, recipients: [{ contactId: contacts[0]!.id, reason: expect.stringContaining('renvoyé') }] })
	})
})

describe('sending', () => {
	test('no more than the campaign rate a second', async () => {
		const { label } = await telegramAudience(10, 'Rate')
		if (runners.length === 0) await startRunner()
		const campaign = await startCampaign(label.id, { ratePerSecond: 4 })
		expect(campaign.ratePerSecond).toBe(4)
		await completed(campaign.id)
		const times = (await recipientsOf(campaign.id)).map((recipient) => recipient.sentAt!.getTime()).sort((a, b) => a - b)
		// Batches of 4 at most (the channel's rate is shared with what ran just before), a second apart: 10 recipients take at least two seconds.
		expect(times.filter((time) => time < times[0]! + 900).length).toBeLessThanOrEqual(4)
		expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(1800)
	})

	test('two campaigns on one channel share its rate', async () => {
		const [first, second] = [await telegramAudience(6, 'SharedA'), await telegramAudience(6, 'SharedB')]
		if (runners.length === 0) await startRunner()
		const campaigns = [await startCampaign(first.label.id, { ratePerSecond: 3 }), await startCampaign(second.label.id, { ratePerSecond: 3 })]
		for (const campaign of campaigns) await completed(campaign.id)
		const times = (await Promise.all(campaigns.map((campaign) => recipientsOf(campaign.id))))
			.flat()
			.map((recipient) => recipient.sentAt!.getTime())
			.sort((a, b) => a - b)
		// 12 recipients at 3 a second across both: at least three seconds, never more than 3 in the first.
		expect(times.filter((time) => time < times[0]! + 900).length).toBeLessThanOrEqual(3)
		expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(2800)
	})

	test('a scheduled campaign starts at its time, by itself, and freezes its audience then', async () => {
		const { label, chats } = await telegramAudience(2, 'Scheduled')
		if (runners.length === 0) await startRunner()
		const at = new Date(Date.now() + 2000)
		const campaign = await startCampaign(label.id, { scheduledAt: at.toISOString() })
		expect(campaign).toMatchObject({ status: 'scheduled', recipientCount: 0 })
		// Labelled before the time: part of the audience when it starts.
		const lateChat = nextChat++
		await addAudience(team.workspace.id, channelId, [{ name: 'Scheduled late', labels: [label.id], identity: String(lateChat) }])
		chats.push(lateChat)
		await completed(campaign.id)
		const started = await testDb().selectFrom('campaigns').select(['startedAt', 'recipientCount']).where('id', '=', campaign.id).executeTakeFirstOrThrow()
		expect(started.startedAt!.getTime()).toBeGreaterThanOrEqual(at.getTime() - 50)
		expect(started.recipientCount).toBe(3)
		expect(
			sentTo()
				.filter((chat) => chats.includes(chat))
				.sort(),
		).toEqual([...chats].sort())
	})

	test('the default rate respects the provider: Telegram 30 a second', async () => {
		const { label } = await telegramAudience(1, 'Default')
		const campaign = await createCampaign(api, team.admin.auth, team.workspace.id, { name: 'Default rate', channelId, labelsIn: [label.id], body: 'Hi' })
		expect(campaign.ratePerSecond).toBe(30)
		await campaignAction(api, team.admin.auth, team.workspace.id, campaign.id, 'cancel')
	})

	test('a provider refusal fails the recipient with its reason; the others are sent', async () => {
		const { label, chats, contacts } = await telegramAudience(3, 'Blocked')
		fake.blockChat(chats[1]!)
		if (runners.length === 0) await startRunner()
		const campaign = await startCampaign(label.id)
		await completed(campaign.id)
		const recipients = await recipientsOf(campaign.id)
		const blocked = recipients.find((recipient) => recipient.contactId === contacts[1]!.id)!
		expect(recipients.map((recipient) => (recipient === blocked ? 'failed' : 'sent'))).toEqual(recipients.map((recipient) => recipient.status))
		expect(blocked.reason).toContain('bot was blocked by the user')
		const failed = await testDb().selectFrom('messages').select(['status', 'error']).where('id', '=', blocked.messageId!).executeTakeFirstOrThrow()
		expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('blocked') })
		fake.unblockChat(chats[1]!)
	})

	test('pause stops sending, resume goes on, cancel skips the rest', async () => {
		const { label, chats } = await telegramAudience(9, 'Pause')
		if (runners.length === 0) await startRunner()
		const campaign = await startCampaign(label.id, { ratePerSecond: 2 })
		await until(async () => sentTo().filter((chat) => chats.includes(chat)).length >= 2)
		expect((await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'pause')).status).toBe('paused')
		const atPause = sentTo().filter((chat) => chats.includes(chat)).length
		await new Promise((resolve) => setTimeout(resolve, 1500))
		// At most the send in flight when the pause came.
		expect(sentTo().filter((chat) => chats.includes(chat)).length).toBeLessThanOrEqual(atPause + 1)
		await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'resume')
		await until(async () => sentTo().filter((chat) => chats.includes(chat)).length >= atPause + 3)
		const cancelled = await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'cancel')
		expect(cancelled.status).toBe('cancelled')
		await new Promise((resolve) => setTimeout(resolve, 1200))
		const recipients = await recipientsOf(campaign.id)
		const sent = recipients.filter((recipient) => recipient.status === 'sent').length
		expect(sent).toBe(sentTo().filter((chat) => chats.includes(chat)).length)
		expect(recipients.filter((recipient) => recipient.status === 'skipped').length).toBe(9 - sent)
		expect(sent).toBeLessThan(9)
	})
})

describe('answers', () => {
	test('a reply marks the recipient replied, in the conversation the campaign message opened', async () => {
		const { label, chats, contacts } = await telegramAudience(2, 'Reply')
		if (runners.length === 0) await startRunner()
		const campaign = await startCampaign(label.id)
		await completed(campaign.id)
		await fake.postUpdate(bot.token, textUpdate({ id: chats[0]!, firstName: 'Reply' }, 'Yes please!'), { origin: api.url })
		const recipientOf = async (contactId: string) => (await recipientsOf(campaign.id)).find((recipient) => recipient.contactId === contactId)!
		await until(async () => (await recipientOf(contacts[0]!.id)).status === 'replied')
		const [replied, quiet] = [await recipientOf(contacts[0]!.id), await recipientOf(contacts[1]!.id)]
		expect(quiet!.status).toBe('sent')
		const conversations = await testDb().selectFrom('conversations').select('id').where('contactId', '=', contacts[0]!.id).execute()
		expect(conversations.map((conversation) => conversation.id)).toEqual([replied!.conversationId])
		const thread = await channelReader(api, team.workspace.id, team.agent.auth).thread(
			(await testDb().selectFrom('conversations').select('number').where('id', '=', replied!.conversationId!).executeTakeFirstOrThrow()).number,
		)
		expect(thread.map((message) => message.body)).toEqual(['Hello Reply 1', 'Yes please!'])

		// The campaign's page hears of the answer as `campaign.updated`; a message in another conversation moves no campaign.
		const heard: Published[] = []
		const conversationOf = (id: string) =>
			testDb().selectFrom('conversations').select(['id', 'workspaceId', 'number']).where('id', '=', id).executeTakeFirstOrThrow()
		const answered = await conversationOf(replied!.conversationId!)
		const answer = await testDb()
			.selectFrom('messages')
			.select(['id', 'kind', 'direction'])
			.where('conversationId', '=', answered.id)
			.where('direction', '=', 'incoming')
			.executeTakeFirstOrThrow()
		const link = await createLinkChannel(team.workspace.id, 'Elsewhere')
		const elsewhere = await customerWrites(link, 'elsewhere-visitor', 'Not about the campaign')
		const other = await testDb()
			.selectFrom('messages')
			.select(['id', 'kind', 'direction'])
			.where('conversationId', '=', elsewhere.conversation.id)
			.executeTakeFirstOrThrow()
		await publishEvents(testDb(), recordingRealtime(heard), [messageEvent('message.created', await conversationOf(elsewhere.conversation.id), other)])
		expect(heard.map((entry) => entry.event)).toEqual(['message.created'])
		await publishEvents(testDb(), recordingRealtime(heard), [messageEvent('message.created', answered, answer)])
		expect(heard.filter((entry) => entry.event === 'campaign.updated').map((entry) => entry.data)).toEqual([
			{ workspaceId: team.workspace.id, campaignId: campaign.id, seq: expect.any(Number) },
		])
	})

	test('STOP, ARRÊT or إلغاء opts the contact out, with a line in the conversation; the next audience leaves them out', async () => {
		const { label, chats, contacts } = await telegramAudience(4, 'OptOut')
		if (runners.length === 0) await startRunner()
		const words = ['STOP', 'arrêt', 'إلغاء', 'stop it']
		for (const [index, word] of words.entries()) {
			await fake.postUpdate(bot.token, textUpdate({ id: chats[index]!, firstName: 'Opt' }, word), { origin: api.url })
		}
		const optedOut = () =>
			testDb()
				.selectFrom('contacts')
				.select(['id', 'optedOutAt'])
				.where(
					'id',
					'in',
					contacts.map((contact) => contact.id),
				)
				.execute()
		// Each chat's update is a job of its own, handled in any order: wait for all four.
		const received = () =>
			testDb()
				.selectFrom('messages')
				.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
				.select('messages.id')
				.where(
					'conversations.contactId',
					'in',
					contacts.map((contact) => contact.id),
				)
				.where('messages.direction', '=', 'incoming')
				.execute()
		await until(async () => (await received()).length === words.length)
		const rows = new Map((await optedOut()).map((row) => [row.id, row.optedOutAt]))
		expect(contacts.map((contact) => rows.get(contact.id) !== null)).toEqual([true, true, true, false])
		const activity = await testDb()
			.selectFrom('messages')
			.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
			.select(['conversations.contactId', 'messages.activity'])
			.where('messages.kind', '=', 'activity')
			.where(
				'conversations.contactId',
				'in',
				contacts.map((contact) => contact.id),
			)
			.execute()
		expect(activity).toHaveLength(3)
		expect(activity.every((row) => row.activity?.key === 'activity.optedOut')).toBe(true)
		const preview = await api.request('POST', campaignsPath(team.workspace.id, '/audience'), {
			body: { channelId, labelsIn: [label.id] },
			headers: team.admin.auth,
		})
		expect(preview.body).toMatchObject({ count: 1, recipients: [{ contactId: contacts[3]!.id }] })
	})

	test('a contact who opts out while a campaign runs is skipped when their turn comes', async () => {
		const { label, chats, contacts } = await telegramAudience(3, 'Midway')
		if (runners.length === 0) await startRunner()
		const campaign = await startCampaign(label.id, { ratePerSecond: 1 })
		await until(async () => (await recipientsOf(campaign.id)).some((recipient) => recipient.status === 'sent'))
		const waiting = (await recipientsOf(campaign.id)).filter((recipient) => recipient.status === 'queued').map((recipient) => recipient.contactId)
		const leaving = contacts.findIndex((contact) => contact.id === waiting.at(-1))
		await fake.postUpdate(bot.token, textUpdate({ id: chats[leaving]!, firstName: 'Midway' }, 'Stop'), { origin: api.url })
		await until(
			async () => (await testDb().selectFrom('contacts').select('optedOutAt').where('id', '=', contacts[leaving]!.id).executeTakeFirstOrThrow()).optedOutAt,
		)
		await completed(campaign.id)
		const recipient = (await recipientsOf(campaign.id)).find((row) => row.contactId === contacts[leaving]!.id)!
		expect(recipient).toMatchObject({ status: 'skipped', reason: 'campaigns:reasons.optedOut', messageId: null })
		expect(sentTo()).not.toContain(chats[leaving])
	})
})
