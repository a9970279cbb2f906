import { type Kysely } from 'kysely'
import { type Database } from '#api/db/schema.ts'
import { labelJson, type LabelJson } from './queries.ts'
import { type CreateLabelBody, type UpdateLabelBody } from './schemas.ts'

type Executor = Kysely<Database>

/** A new label of the workspace. A title another label has is refused by the database (`labelTitleConstraint`), thrown as it is. */
export async function createLabel(db: Executor, workspaceId: string, values: CreateLabelBody): Promise<LabelJson> {
	const label = await db
		.insertInto('labels')
		.values({ workspaceId, ...values })
		.returningAll()
		.executeTakeFirstOrThrow()
	return labelJson(label)
}

/** The label changed; undefined when it is gone (deleted by someone else in between). A title taken is thrown as createLabel's. */
export async function updateLabel(db: Executor, workspaceId: string, label: LabelJson, changes: UpdateLabelBody): Promise<LabelJson | undefined> {
	const updated = await db
		.updateTable('labels')
		.set({ ...changes, updatedAt: new Date() })
		.where('workspaceId', '=', workspaceId)
		.where('id', '=', label.id)
		.returningAll()
		.executeTakeFirst()
	return updated && labelJson(updated)
}

/** Whether the workspace had the label. Contacts and conversations lose it through their foreign keys. */
export async function deleteLabel(db: Executor, workspaceId: string, labelId: string): Promise<boolean> {
	const deleted = await db.deleteFrom('labels').where('workspaceId', '=', workspaceId).where('id', '=', labelId).executeTakeFirst()
	return deleted.numDeletedRows > 0n
}
