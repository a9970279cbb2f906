import { type Kysely } from 'kysely'
import { isUniqueViolation } from '#api/db/errors.ts'
import { type Database } from '#api/db/schema.ts'
import { labelJson, labelTitleConstraint, type LabelJson } from './queries.ts'
import { type CreateLabelBody, type UpdateLabelBody } from './schemas.ts'

type Executor = Kysely<Database>

/** Another label of the workspace has this title (in any case: titles are citext). */
export class LabelTitleTaken extends Error {
	constructor(readonly title: string) {
		super(`A label titled ${title} exists`)
	}
}

function titleTaken(title: string) {
	return (error: unknown): never => {
		throw isUniqueViolation(error, labelTitleConstraint) ? new LabelTitleTaken(title) : error
	}
}

/** A new label of the workspace. Throws LabelTitleTaken. */
export async function createLabel(db: Executor, workspaceId: string, values: CreateLabelBody): Promise<LabelJson> {
	const label = await db
		.insertInto('labels')
		.values({ workspaceId, ...values })
		.returningAll()
		.executeTakeFirstOrThrow()
		.catch(titleTaken(values.title))
	return labelJson(label)
}

/** The label changed; undefined when it is gone (deleted by someone else in between). Throws LabelTitleTaken. */
export async function updateLabel(db: Executor, workspaceId: string, label: LabelJson, changes: UpdateLabelBody): Promise<LabelJson | undefined> {
	const updated = await db
		.updateTable('labels')
		.set({ ...changes, updatedAt: new Date() })
		.where('workspaceId', '=', workspaceId)
		.where('id', '=', label.id)
		.returningAll()
		.executeTakeFirst()
		.catch(titleTaken(changes.title ?? label.title))
	return updated && labelJson(updated)
}

/** Whether the workspace had the label. Contacts and conversations lose it through their foreign keys. */
export async function deleteLabel(db: Executor, workspaceId: string, labelId: string): Promise<boolean> {
	const deleted = await db.deleteFrom('labels').where('workspaceId', '=', workspaceId).where('id', '=', labelId).executeTakeFirst()
	return deleted.numDeletedRows > 0n
}
