import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { runAutomation } from '#api/automation/run.ts'
import { createDb } from '#api/db/database.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { addJob, startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam } from './workspaces-fixtures.ts'
import { addRule, messagesOf, pendingJobs, runsOf, takeJobs } from './automation-fixtures.ts'
import { until } from './channels-fixtures.ts'
import { createLinkChannel, customerWrites, recordingRealtime } from './conversations-fixtures.ts'

/** Exactly once (issue 31): the same event never runs a rule twice, across a retried job and two processes. */

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

const quiet = { info: () => {}, debug: () => {}, error: () => {} }

async function welcoming(name: string) {
	const people = await createTeam(name)
	const channel = await createLinkChannel(people.workspace.id)
	const rule = await addRule(api, people.owner.auth, people.workspace.id, { name: 'Welcome', actions: [{ kind: 'sendMessage', body: 'Welcome {{name}}' }] })
	return { people, channel, rule }
}

const outgoing = async (conversationId: string) => (await messagesOf(conversationId, 'text')).filter((message) => message.direction === 'outgoing')

describe('exactly once', () => {
	test('the same job run twice, and by two processes at once: one run, one message', async () => {
		const { channel, rule } = await welcoming('Once')
		const { conversation } = await customerWrites(channel, 'visitor-once', 'Hello')
		const [job] = await takeJobs(conversation.id)
		expect(job).toMatchObject({ event: 'message.received', depth: 0 })
		await runAutomation(testDb(), recordingRealtime(), job!)
		await runAutomation(testDb(), recordingRealtime(), job!)
		expect((await runsOf(conversation.id)).map((run) => run.ruleId)).toEqual([rule.id])
		expect((await outgoing(conversation.id)).map((message) => message.body)).toEqual(['Welcome Visitor visitor-once'])

		// Two processes, each with its own connections, take the same event at the same moment.
		const { conversation: second } = await customerWrites(channel, 'visitor-twice', 'Hello')
		const [again] = await takeJobs(second.id)
		const processes = [createDb(inject('databaseUrl'), 2), createDb(inject('databaseUrl'), 2)]
		try {
			await Promise.all(processes.map((db) => runAutomation(db, recordingRealtime(), again!)))
		} finally {
			await Promise.all(processes.map((db) => db.destroy()))
		}
		expect(await runsOf(second.id)).toHaveLength(1)
		expect(await outgoing(second.id)).toHaveLength(1)
	})

	test('two job runners, a burst of customers and every job added twice: each message runs the rule once', async () => {
		const { channel, rule } = await welcoming('Runners')
		const customers = 12
		const written = await Promise.all(Array.from({ length: customers }, (_, index) => customerWrites(channel, `burst-${index}`, 'Hi')))
		// A retry after a lost "done": the same payloads queued again.
		for (const { conversation } of written) {
			const jobs = await takeJobs(conversation.id)
			for (const job of [...jobs, ...jobs]) await addJob(testDb(), 'run-automation', job, { queueName: `automation:${conversation.id}` })
		}
		const runners: JobRunner[] = await Promise.all(
			[0, 1].map(() =>
				startJobRunner({
					db: testDb(),
					databaseUrl: inject('databaseUrl'),
					handlers: { 'run-automation': jobHandlers['run-automation'] },
					log: quiet,
					config: api.config,
					concurrency: 4,
					pollInterval: 50,
				}),
			),
		)
		try {
			await until(async () => {
				const pending = await Promise.all(written.map(({ conversation }) => pendingJobs(conversation.id)))
				return pending.every((count) => count === 0)
			})
		} finally {
			await Promise.all(runners.map((runner) => runner.stop()))
		}
		for (const { conversation } of written) {
			expect((await runsOf(conversation.id)).map((run) => run.ruleId)).toEqual([rule.id])
			expect(await outgoing(conversation.id)).toHaveLength(1)
		}
	})
})
