import { sql } from 'kysely'
import { expect } from 'vitest'
import { runAutomation, type AutomationJob } from '#api/automation/run.ts'
import { type AutomationRuleJson } from '#api/automation/queries.ts'
import { type DB } from '#api/db/database.ts'
import { testDb, type TestApi } from './harness.ts'
import { recordingRealtime } from './conversations-fixtures.ts'

export type { AutomationRuleJson }

export const rulesPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/automation-rules${rest}`

export async function addRule(api: TestApi, auth: Record<string, string>, workspaceId: string, body: Record<string, unknown>): Promise<AutomationRuleJson> {
	const response = await api.request('POST', rulesPath(workspaceId), { body: { event: 'message.received', ...body }, headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as AutomationRuleJson
}

/** The conversation's pending `run-automation` jobs, taken off the queue (so that no runner runs them), oldest first. */
export async function takeJobs(conversationId: string, db: DB = testDb()): Promise<AutomationJob[]> {
	const { rows } = await sql<{ id: string; payload: AutomationJob }>`
		select jobs.id, jobs.payload from graphile_worker._private_jobs jobs
		join graphile_worker._private_tasks tasks on tasks.id = jobs.task_id
		where tasks.identifier = 'run-automation' and jobs.payload->>'conversationId' = ${conversationId}
		order by jobs.id`.execute(db)
	if (rows.length) await sql`select graphile_worker.complete_jobs(${rows.map((row) => row.id)}::bigint[])`.execute(db)
	return rows.map((row) => row.payload)
}

/** Runs the conversation's rule jobs as the queue would, one at a time, and those their actions add, until none is left. */
export async function runRules(conversationId: string): Promise<AutomationJob[]> {
	const ran: AutomationJob[] = []
	for (let round = 0; round < 10; round++) {
		const jobs = await takeJobs(conversationId)
		if (jobs.length === 0) return ran
		for (const job of jobs) await runAutomation(testDb(), recordingRealtime(), job)
		ran.push(...jobs)
	}
	throw new Error('rules kept setting each other off')
}

/** The runs of a conversation, oldest first. */
export function runsOf(conversationId: string) {
	return testDb().selectFrom('automationRuns').selectAll().where('conversationId', '=', conversationId).orderBy('id').execute()
}

/** The thread's messages of a kind, oldest first. */
export function messagesOf(conversationId: string, kind: 'text' | 'note' | 'activity') {
	return testDb().selectFrom('messages').selectAll().where('conversationId', '=', conversationId).where('kind', '=', kind).orderBy('id').execute()
}

/** How many `run-automation` jobs of the conversation are queued or running. */
export async function pendingJobs(conversationId: string): Promise<number> {
	const { rows } = await sql<{ n: number }>`
		select count(*)::int as n from graphile_worker._private_jobs jobs
		join graphile_worker._private_tasks tasks on tasks.id = jobs.task_id
		where tasks.identifier = 'run-automation' and jobs.payload->>'conversationId' = ${conversationId}`.execute(testDb())
	return rows[0]!.n
}
