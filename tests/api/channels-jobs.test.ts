import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { channelReader, until } from './channels-fixtures.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { postMessage, recordingRealtime } from './conversations-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

let fake: TelegramFake
let api: TestApi
let team: Team
const runners: JobRunner[] = []

/** A job runner as each app process starts one, on the same database. */
async function startRunner() {
	const runner = await startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: jobHandlers,
		log: quiet,
		config: api.config,
		realtime: recordingRealtime(),
		pollInterval: 100,
	})
	runners.push(runner)
	return runner
}

beforeAll(async () => {
	fake = await startTelegramFake()
	api = await startApi({ TELEGRAM_API_URL: fake.url })
	team = await createTeam('Telegram jobs')
})

afterAll(async () => {
	await Promise.all(runners.map((runner) => runner.stop()))
	await api.close()
	await fake.close()
})

describe('sending through the job queue', () => {
	test('replies written while no process runs jobs leave after a restart, each exactly once across two processes', async () => {
		const bot = fake.addBot()
		const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			headers: team.admin.auth,
			body: { kind: 'telegram', name: 'Queue', credentials: { botToken: bot.token } },
		})
		expect(created.status).toBe(201)
		const channelId = (created.body as { id: string }).id
		const first = await startRunner()
		await fake.postUpdate(bot.token, textUpdate({ id: 555_100_001, firstName: 'Hana' }, 'Hello'), { origin: api.url })
		const conversation = await channelReader(api, team.workspace.id, team.agent.auth).firstConversation(channelId)

		// The only process running jobs stops: the replies are kept as jobs, nothing is sent.
		await first.stop()
		runners.splice(runners.indexOf(first), 1)
		const texts = Array.from({ length: 30 }, (_, index) => `Reply ${index + 1}`)
		for (const text of texts) await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: text })
		await new Promise((resolve) => setTimeout(resolve, 300))
		const sentTexts = () =>
			fake.received.filter((request) => request.path === `/bot${bot.token}/sendMessage`).map((request) => (request.body as { text: string }).text)
		expect(sentTexts()).toEqual([])

		// Two processes start again and share the queue.
		await Promise.all([startRunner(), startRunner()])
		await until(async () => {
			const pending = await testDb()
				.selectFrom('messages')
				.select('id')
				.where('conversationId', '=', conversation.id)
				.where('status', '=', 'pending')
				.executeTakeFirst()
			return !pending
		})
		expect(sentTexts().sort()).toEqual([...texts].sort())
		const statuses = await testDb()
			.selectFrom('messages')
			.select('status')
			.where('conversationId', '=', conversation.id)
			.where('direction', '=', 'outgoing')
			.execute()
		expect(statuses.map((row) => row.status)).toEqual(texts.map(() => 'sent'))
	})
})
