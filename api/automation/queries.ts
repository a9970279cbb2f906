import { sql } from 'kysely'
import { type AutomationAction, type AutomationCondition, type AutomationRuleInput } from '#common/automation.ts'
import { type DB } from '#api/db/database.ts'
import { type Activity, type AutomationActionResult, type AutomationRule, type AutomationRun } from '#api/db/schema.ts'
import { type MoveRuleBody, type UpdateRuleBody } from './schemas.ts'

export type AutomationRuleJson = AutomationRuleInput & { id: string; position: number; createdAt: string; updatedAt: string; lastRunAt: string | null }

/** A run as its rule's page lists it; errors are `automation` translation keys with their values. */
export type AutomationRunJson = {
	id: string
	event: AutomationRun['event']
	outcome: AutomationRun['outcome']
	depth: number
	conversation: { number: number } | null
	actions: AutomationActionResult[]
	error: Activity | null
	createdAt: string
}

/** A rule's run log keeps this many runs (api/jobs/prune.ts removes older ones). */
export const keptRuns = 1000
export const runsPageSize = 50

function rules(db: DB, workspaceId: string) {
	return db
		.selectFrom('automationRules')
		.selectAll('automationRules')
		.select((eb) =>
			eb
				.selectFrom('automationRuns')
				.select('automationRuns.createdAt')
				.whereRef('automationRuns.ruleId', '=', 'automationRules.id')
				.orderBy('automationRuns.id', 'desc')
				.limit(1)
				.as('lastRunAt'),
		)
		.where('automationRules.workspaceId', '=', workspaceId)
}

function ruleJson(row: AutomationRule & { lastRunAt: Date | null }): AutomationRuleJson {
	return {
		id: row.id,
		name: row.name,
		enabled: row.enabled,
		event: row.event,
		match: row.match,
		conditions: row.conditions,
		actions: row.actions,
		stopAfter: row.stopAfter,
		position: row.position,
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString(),
		lastRunAt: row.lastRunAt?.toISOString() ?? null,
	}
}

/** The workspace's rules in run order. */
export async function listRules(db: DB, workspaceId: string): Promise<AutomationRuleJson[]> {
	const rows = await rules(db, workspaceId).orderBy('automationRules.position').orderBy('automationRules.id').execute()
	return rows.map(ruleJson)
}

export async function findRule(db: DB, workspaceId: string, ruleId: string): Promise<AutomationRuleJson | undefined> {
	const row = await rules(db, workspaceId).where('automationRules.id', '=', ruleId).executeTakeFirst()
	return row && ruleJson(row)
}

const columns = (input: Partial<AutomationRuleInput>) => ({
	...(input.name !== undefined && { name: input.name }),
	...(input.enabled !== undefined && { enabled: input.enabled }),
	...(input.event !== undefined && { event: input.event }),
	...(input.match !== undefined && { match: input.match }),
	...(input.conditions !== undefined && { conditions: JSON.stringify(input.conditions) }),
	...(input.actions !== undefined && { actions: JSON.stringify(input.actions) }),
	...(input.stopAfter !== undefined && { stopAfter: input.stopAfter }),
})

/** A new rule, last in the run order. */
export async function createRule(db: DB, workspaceId: string, input: AutomationRuleInput): Promise<string> {
	const row = await db
		.insertInto('automationRules')
		.values({
			workspaceId,
			name: input.name,
			event: input.event,
			conditions: JSON.stringify(input.conditions),
			actions: JSON.stringify(input.actions),
			...columns(input),
			position: sql<number>`(select coalesce(max(position) + 1, 0) from automation_rules where workspace_id = ${workspaceId})`,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return row.id
}

export async function updateRule(db: DB, workspaceId: string, ruleId: string, changes: UpdateRuleBody): Promise<boolean> {
	const row = await db
		.updateTable('automationRules')
		.set({ ...columns(changes), updatedAt: sql<Date>`now()` })
		.where('workspaceId', '=', workspaceId)
		.where('id', '=', ruleId)
		.returning('id')
		.executeTakeFirst()
	return row !== undefined
}

export async function deleteRule(db: DB, workspaceId: string, ruleId: string): Promise<boolean> {
	const row = await db.deleteFrom('automationRules').where('workspaceId', '=', workspaceId).where('id', '=', ruleId).returning('id').executeTakeFirst()
	return row !== undefined
}

/** Moves a rule in the run order and numbers the workspace's rules 0, 1, 2… (locked, so that two moves at once do not interleave). */
export async function moveRule(db: DB, workspaceId: string, ruleId: string, move: MoveRuleBody): Promise<boolean> {
	return db.transaction().execute(async (trx) => {
		const rows = await trx
			.selectFrom('automationRules')
			.select('id')
			.where('workspaceId', '=', workspaceId)
			.orderBy('position')
			.orderBy('id')
			.forUpdate()
			.execute()
		const ids = rows.map((row) => row.id)
		const from = ids.indexOf(ruleId)
		if (from === -1) return false
		const to = 'position' in move ? Math.min(move.position, ids.length - 1) : Math.max(0, Math.min(ids.length - 1, from + (move.direction === 'up' ? -1 : 1)))
		ids.splice(from, 1)
		ids.splice(to, 0, ruleId)
		await sql`
			update automation_rules set position = ordered.n - 1, updated_at = case when automation_rules.position <> ordered.n - 1 then now() else updated_at end
			from unnest(${ids}::uuid[]) with ordinality as ordered(id, n)
			where automation_rules.id = ordered.id
		`.execute(trx)
		return true
	})
}

/** A page of the rule's runs, newest first. */
export async function listRuns(db: DB, ruleId: string, cursor: string | undefined): Promise<{ runs: AutomationRunJson[]; nextCursor: string | null }> {
	let query = db
		.selectFrom('automationRuns')
		.leftJoin('conversations', 'conversations.id', 'automationRuns.conversationId')
		.selectAll('automationRuns')
		.select('conversations.number')
		.where('automationRuns.ruleId', '=', ruleId)
		.orderBy('automationRuns.id', 'desc')
		.limit(runsPageSize + 1)
	if (cursor) query = query.where('automationRuns.id', '<', cursor)
	const rows = await query.execute()
	const page = rows.slice(0, runsPageSize)
	return {
		runs: page.map((row) => ({
			id: String(row.id),
			event: row.event,
			outcome: row.outcome,
			depth: row.depth,
			conversation: row.number !== null ? { number: row.number } : null,
			actions: row.actions,
			error: row.error,
			createdAt: row.createdAt.toISOString(),
		})),
		nextCursor: rows.length > runsPageSize ? String(page.at(-1)!.id) : null,
	}
}

type Reference = { path: string; table: 'labels' | 'teams' | 'channels' | 'members' | 'cannedResponses'; ids: string[] }

function referencesOf(conditions: AutomationCondition[] = [], actions: AutomationAction[] = []): Reference[] {
	const references: Reference[] = []
	conditions.forEach((condition, index) => {
		const at = (field: string) => `conditions.${index}.${field}`
		if (condition.kind === 'channel') references.push({ path: at('channelIds'), table: 'channels', ids: condition.channelIds })
		if (condition.kind === 'contactLabel' || condition.kind === 'conversationLabel')
			references.push({ path: at('labelId'), table: 'labels', ids: [condition.labelId] })
		if (condition.kind === 'team') references.push({ path: at('teamIds'), table: 'teams', ids: condition.teamIds })
		if (condition.kind === 'assignee') references.push({ path: at('userIds'), table: 'members', ids: condition.userIds })
	})
	actions.forEach((action, index) => {
		const at = (field: string) => `actions.${index}.${field}`
		if (action.kind === 'assignTeam') references.push({ path: at('teamId'), table: 'teams', ids: [action.teamId] })
		if (action.kind === 'assignAgent') references.push({ path: at('userId'), table: 'members', ids: [action.userId] })
		if (action.kind === 'addLabels' || action.kind === 'removeLabels') references.push({ path: at('labelIds'), table: 'labels', ids: action.labelIds })
		if (action.kind === 'sendCannedResponse') references.push({ path: at('cannedResponseId'), table: 'cannedResponses', ids: [action.cannedResponseId] })
	})
	return references
}

/** The path of the first label, team, channel, agent or canned response a rule names that is not the workspace's; null when all are. */
export async function foreignReference(db: DB, workspaceId: string, input: Partial<AutomationRuleInput>): Promise<string | null> {
	const references = referencesOf(input.conditions, input.actions)
	const known = new Set<string>()
	for (const table of ['labels', 'teams', 'channels', 'cannedResponses', 'members'] as const) {
		const ids = [...new Set(references.filter((reference) => reference.table === table).flatMap((reference) => reference.ids))]
		if (ids.length === 0) continue
		const rows =
			table === 'members'
				? await db.selectFrom('members').select('userId as id').where('workspaceId', '=', workspaceId).where('userId', 'in', ids).execute()
				: await db.selectFrom(table).select('id').where('workspaceId', '=', workspaceId).where('id', 'in', ids).execute()
		for (const row of rows) known.add(`${table}:${row.id}`)
	}
	return references.find((reference) => reference.ids.some((id) => !known.has(`${reference.table}:${id}`)))?.path ?? null
}
