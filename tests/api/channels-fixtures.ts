import { afterAll, beforeAll, inject } from 'vitest'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner } from '#api/jobs/queue.ts'
import { conversationsPath, recordingRealtime, type ConversationJson, type MessageJson, type Published } from './conversations-fixtures.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

/**
 * The API (its providers' URLs in `env`, pointing at their fakes) with a job runner to process
 * webhooks and sends, and a team whose agent reads the channels' conversations.
 */
export async function startChannelsApi(env: Record<string, string>, teamName: string, published: Published[] = []) {
	const api = await startApi(env)
	const team = await createTeam(teamName)
	const reader = channelReader(api, team.workspace.id, team.agent.auth)
	const jobs = await startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: jobHandlers,
		log: quiet,
		config: api.config,
		realtime: recordingRealtime(published),
		pollInterval: 100,
	})
	return {
		api,
		team,
		reader,
		async close() {
			await jobs.stop()
			await api.close()
		},
	}
}

/** Waits (up to 15 s) for `check` to give a value: webhooks and sends are jobs, done in their own time. */
export async function until<T>(check: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
	for (let waited = 0; waited < ms; waited += 50) {
		const value = await check()
		if (value) return value
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
	throw new Error('timed out')
}

/** What a member reads of one channel: its conversations (every status), and a conversation's thread. */
export function channelReader(api: TestApi, workspaceId: string, auth: Record<string, string>) {
	return {
		async conversationsOf(channelId: string): Promise<ConversationJson[]> {
			const answer = await api.request('GET', `${conversationsPath(workspaceId)}?status=all&channelId=${channelId}`, { headers: auth })
			return (answer.body as { conversations: ConversationJson[] }).conversations
		},
		async thread(number: number): Promise<MessageJson[]> {
			const answer = await api.request('GET', conversationsPath(workspaceId, `/${number}/messages`), { headers: auth })
			return (answer.body as { messages: MessageJson[] }).messages
		},
		/** The channel's first conversation, once its webhook has been processed. */
		firstConversation(channelId: string): Promise<ConversationJson> {
			return until(async () => (await this.conversationsOf(channelId))[0])
		},
	}
}

export type ChannelReader = ReturnType<typeof channelReader>

/**
 * A provider's test file: its fake, the API with `setting` (e.g. `META_GRAPH_URL`) pointing at it, a
 * team, a reader for its agent and a job runner (publishing into `published`); started before the
 * file's tests (read the fields in a test or a later hook) and stopped after them.
 */
export function channelSuite<Fake extends { url: string; close: () => Promise<void> }>(
	startFake: () => Promise<Fake>,
	setting: string,
	teamName: string,
	published: Published[] = [],
) {
	const suite = {} as { fake: Fake; api: TestApi; team: Team; reader: ChannelReader }
	let close: () => Promise<void>
	beforeAll(async () => {
		suite.fake = await startFake()
		;({ api: suite.api, team: suite.team, reader: suite.reader, close } = await startChannelsApi({ [setting]: suite.fake.url }, teamName, published))
	})
	afterAll(async () => {
		await close()
		await suite.fake.close()
	})
	return suite
}
