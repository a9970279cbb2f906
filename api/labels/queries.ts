import { type Kysely } from 'kysely'
import { type Database, type Label } from '#api/db/schema.ts'

type Executor = Kysely<Database>

export type LabelJson = {
	id: string
	title: string
	description: string | null
	color: string
	contactCount: number
	createdAt: string
	updatedAt: string
}

/** What a contact shows of each of its labels. */
export type LabelSummary = { id: string; title: string; color: string }

export function labelJson(label: Label): LabelJson {
	return {
		id: label.id,
		title: label.title,
		description: label.description,
		color: label.color,
		contactCount: label.contactCount,
		createdAt: label.createdAt.toISOString(),
		updatedAt: label.updatedAt.toISOString(),
	}
}

export const labelTitleConstraint = 'labels_workspace_title_key'

/** Every label of a workspace by title (case-insensitive, citext), with how many contacts carry it (kept by triggers). */
export async function listLabels(db: Executor, workspaceId: string): Promise<LabelJson[]> {
	const rows = await db.selectFrom('labels').selectAll().where('workspaceId', '=', workspaceId).orderBy('title').orderBy('id').execute()
	return rows.map(labelJson)
}

export async function findLabel(db: Executor, workspaceId: string, labelId: string): Promise<LabelJson | undefined> {
	const row = await db.selectFrom('labels').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', labelId).executeTakeFirst()
	return row && labelJson(row)
}

/** The ids among `labelIds` that are labels of the workspace. */
export async function existingLabelIds(db: Executor, workspaceId: string, labelIds: readonly string[]): Promise<Set<string>> {
	if (labelIds.length === 0) return new Set()
	const rows = await db
		.selectFrom('labels')
		.select('id')
		.where('workspaceId', '=', workspaceId)
		.where('id', 'in', [...labelIds])
		.execute()
	return new Set(rows.map((row) => row.id))
}
