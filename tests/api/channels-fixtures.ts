import { afterAll, beforeAll, inject } from 'vitest'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { conversationsPath, type ConversationJson, type MessageJson, type Published, recordingRealtime } from './conversations-fixtures.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

/** Waits (up to 15 s) for `check` to give a value: webhooks and sends are jobs, done in their own time. */
export async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
	for (let waited = 0; waited < 15_000; waited += 50) {
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

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

/**
 * A provider's test file: its fake, the API with `setting` (e.g. `META_GRAPH_URL`) pointing at it, a
 * team, a reader for its agent and a job runner (publishing into `published`); started before the
 * file's tests (read the fields in a test or a later hook) and stopped after them.
 */
export function channelSuite<Fake extends { url: string; close: () => Promise<void> }>(startFake: () => Promise<Fake>, setting: string, teamName: string, published: Published[] = []) {
	const suite = {} as { fake: Fake; api: TestApi; team: Team; reader: ChannelReader }
	let jobs: JobRunner
	beforeAll(async () => {
		suite.fake = await startFake()
		suite.api = await startApi({ [setting]: suite.fake.url })
		suite.team = await createTeam(teamName)
		suite.reader = channelReader(suite.api, suite.team.workspace.id, suite.team.agent.auth)
		jobs = await startJobRunner({ db: testDb(), databaseUrl: inject('databaseUrl'), handlers: jobHandlers, log: quiet, config: suite.api.config, realtime: recordingRealtime(published), pollInterval: 100 })
	})
	afterAll(async () => {
		await jobs.stop()
		await suite.api.close()
		await suite.fake.close()
	})
	return suite
}
