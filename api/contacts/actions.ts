import { recordAudit, type AuditActor } from '#api/audit/record.ts'
import { type DB } from '#api/db/database.ts'
import { randomLogoColor } from '#api/workspaces/queries.ts'
import { mergeContacts } from './merge.ts'
import { replaceLabels } from './queries.ts'
import { type BulkBody, type ContactInput, type NewContactInput } from './schemas.ts'

/** A new contact of the workspace, with its labels; its id. A database refusal (an e-mail taken) is thrown as it is. */
export async function createContact(db: DB, workspaceId: string, { labelIds, attributes, ...fields }: NewContactInput): Promise<string> {
	return db.transaction().execute(async (trx) => {
		const created = await trx
			.insertInto('contacts')
			.values({ ...fields, workspaceId, attributes: attributes ?? {}, avatarColor: randomLogoColor() })
			.returning('id')
			.executeTakeFirstOrThrow()
		if (labelIds?.length) await replaceLabels(trx, workspaceId, created.id, labelIds)
		return created.id
	})
}

/** The contact's fields changed, and its labels replaced when given; whether the workspace has it. */
export async function updateContact(db: DB, workspaceId: string, contactId: string, { labelIds, ...fields }: ContactInput): Promise<boolean> {
	return db.transaction().execute(async (trx) => {
		const row = await trx
			.updateTable('contacts')
			.set({ ...fields, updatedAt: new Date() })
			.where('workspaceId', '=', workspaceId)
			.where('id', '=', contactId)
			.returning('id')
			.executeTakeFirst()
		if (row && labelIds) await replaceLabels(trx, workspaceId, row.id, labelIds)
		return row !== undefined
	})
}

/** Labels, unlabels or deletes the workspace's contacts among `contactIds` (a deletion in the audit log); how many it had. */
export async function changeContacts(db: DB, workspaceId: string, actor: AuditActor, { action, contactIds, labelId }: BulkBody): Promise<number> {
	return db.transaction().execute(async (trx) => {
		const contacts = trx.selectFrom('contacts').where('workspaceId', '=', workspaceId).where('id', 'in', contactIds)
		if (action === 'delete') {
			const deleted = await trx.deleteFrom('contacts').where('workspaceId', '=', workspaceId).where('id', 'in', contactIds).executeTakeFirst()
			const count = Number(deleted.numDeletedRows)
			if (count > 0) await recordAudit(trx, workspaceId, actor, 'contacts.deleted', { count })
			return count
		}
		const { count } = await contacts.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
		if (action === 'label' && labelId) {
			await trx
				.insertInto('contactLabels')
				.columns(['workspaceId', 'contactId', 'labelId'])
				.expression(contacts.select((eb) => ['contacts.workspaceId', 'contacts.id', eb.val(labelId).as('labelId')]))
				.onConflict((oc) => oc.doNothing())
				.execute()
		}
		if (action === 'unlabel' && labelId) {
			await trx.deleteFrom('contactLabels').where('workspaceId', '=', workspaceId).where('labelId', '=', labelId).where('contactId', 'in', contactIds).execute()
		}
		return count
	})
}

/** A contact who opted out of campaigns receives them again; whether the workspace has it. */
export async function optIn(db: DB, workspaceId: string, contactId: string): Promise<boolean> {
	const row = await db
		.updateTable('contacts')
		.set({ optedOutAt: null, updatedAt: new Date() })
		.where('workspaceId', '=', workspaceId)
		.where('id', '=', contactId)
		.returning('id')
		.executeTakeFirst()
	return row !== undefined
}

/** `contactId` merged into `into` (merge.ts), in the audit log; whether the workspace has both. */
export async function mergeContact(db: DB, workspaceId: string, actor: AuditActor, contactId: string, into: string): Promise<boolean> {
	return db.transaction().execute(async (trx) => {
		const names = await mergeContacts(trx, workspaceId, contactId, into)
		if (names) await recordAudit(trx, workspaceId, actor, 'contacts.merged', { contact: names.sourceName, into: names.targetName })
		return names !== null
	})
}

/** The contact deleted, in the audit log; whether the workspace had it. */
export async function deleteContact(db: DB, workspaceId: string, actor: AuditActor, contactId: string): Promise<boolean> {
	return db.transaction().execute(async (trx) => {
		const row = await trx.deleteFrom('contacts').where('workspaceId', '=', workspaceId).where('id', '=', contactId).returning('id').executeTakeFirst()
		if (row) await recordAudit(trx, workspaceId, actor, 'contacts.deleted', { count: 1 })
		return row !== undefined
	})
}
