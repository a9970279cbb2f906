import { sql, type Insertable } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Campaign, type CampaignsTable } from '#api/db/schema.ts'
import { removeJob } from '#api/jobs/queue.ts'
import { startJobKey } from './sending.ts'

/** The statuses in which a campaign may be edited (and deleted without being cancelled first). */
export const editable: ReadonlyArray<Campaign['status']> = ['draft', 'scheduled']

/** What a member chose of a campaign, checked: its name, channel, audience, message, time and rate. */
export type CampaignValues = Pick<
	Insertable<CampaignsTable>,
	'name' | 'channelId' | 'labelsIn' | 'labelsOut' | 'body' | 'template' | 'scheduledAt' | 'ratePerSecond'
>

/** A new draft campaign of the workspace; its id. */
export async function createCampaign(db: DB, workspaceId: string, values: CampaignValues, createdBy: string): Promise<string> {
	const created = await db
		.insertInto('campaigns')
		.values({ workspaceId, ...values, createdBy })
		.returning('id')
		.executeTakeFirstOrThrow()
	return created.id
}

/** The campaign's new values, while it is still editable: a scheduled one goes back to a draft, started again when ready. */
export async function editCampaign(db: DB, campaign: Pick<Campaign, 'id' | 'status'>, values: CampaignValues): Promise<void> {
	await db.transaction().execute(async (trx) => {
		if (campaign.status === 'scheduled') await cancelStart(trx, campaign.id)
		await trx
			.updateTable('campaigns')
			.set({ ...values, status: 'draft', updatedAt: sql<Date>`now()` })
			.where('id', '=', campaign.id)
			.where('status', 'in', editable)
			.execute()
	})
}

/** The campaign gone, with its scheduled start. */
export async function deleteCampaign(db: DB, campaignId: string): Promise<void> {
	await db.transaction().execute(async (trx) => {
		await cancelStart(trx, campaignId)
		await trx.deleteFrom('campaigns').where('id', '=', campaignId).execute()
	})
}

/** A scheduled start that will not happen (the campaign edited or deleted). */
function cancelStart(trx: DB, campaignId: string) {
	return removeJob(trx, startJobKey(campaignId))
}
