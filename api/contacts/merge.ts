import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { limits } from './schemas.ts'

/**
 * Merges `sourceId` into `targetId` (one workspace's, two different contacts): the target takes the
 * source's identities, conversations, campaign recipients and labels, the fields it lacks (never
 * the source's unverified e-mail as its own), the later activity and an opt-out of either; the
 * source is deleted. An agent's decision that two contacts are one person: a chat-link visitor who
 * typed the e-mail of a known customer is merged only so (issue 26). Null when either is missing.
 */
export async function mergeContacts(
	trx: DB,
	workspaceId: string,
	sourceId: string,
	targetId: string,
): Promise<{ sourceName: string; targetName: string } | null> {
	// Both locked, in one order whatever the direction, so that two merges of the same pair cannot deadlock.
	const pair = await trx
		.selectFrom('contacts')
		.selectAll()
		.where('workspaceId', '=', workspaceId)
		.where('id', 'in', [sourceId, targetId])
		.orderBy('id')
		.forUpdate()
		.execute()
	const source = pair.find((contact) => contact.id === sourceId)
	const target = pair.find((contact) => contact.id === targetId)
	if (!source || !target || sourceId === targetId) return null

	await trx.updateTable('contactIdentities').set({ contactId: targetId }).where('workspaceId', '=', workspaceId).where('contactId', '=', sourceId).execute()
	await trx.updateTable('conversations').set({ contactId: targetId }).where('workspaceId', '=', workspaceId).where('contactId', '=', sourceId).execute()
	await trx.updateTable('satisfactionSurveys').set({ contactId: targetId }).where('workspaceId', '=', workspaceId).where('contactId', '=', sourceId).execute()
	// A campaign that reached both keeps the target's line; the source's goes with it.
	await sql`
		update campaign_recipients r set contact_id = ${targetId}
		where r.workspace_id = ${workspaceId} and r.contact_id = ${sourceId}
		  and not exists (select 1 from campaign_recipients t where t.campaign_id = r.campaign_id and t.contact_id = ${targetId})`.execute(trx)
	await sql`
		insert into contact_labels (workspace_id, contact_id, label_id)
		select workspace_id, ${targetId}, label_id from contact_labels where contact_id = ${sourceId}
		on conflict do nothing`.execute(trx)
	await trx
		.updateTable('contacts')
		.set({
			phone: target.phone ?? source.phone,
			company: target.company ?? source.company,
			notes: [target.notes, source.notes].filter(Boolean).join('\n\n').slice(0, limits.notes) || null,
			attributes: Object.fromEntries(
				[...Object.entries(target.attributes), ...Object.entries(source.attributes).filter(([key]) => !(key in target.attributes))].slice(0, limits.attributes),
			),
			optedOutAt: target.optedOutAt ?? source.optedOutAt,
			lastActivityAt: target.lastActivityAt > source.lastActivityAt ? target.lastActivityAt : source.lastActivityAt,
			updatedAt: new Date(),
		})
		.where('id', '=', targetId)
		.execute()
	await trx.deleteFrom('contacts').where('id', '=', sourceId).execute()
	return { sourceName: source.name, targetName: target.name }
}
