import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type RecipientStatus } from '#api/db/schema.ts'
import { demoChannel } from './conversations.ts'

export const demoCampaign = {
	name: 'Spring sale — 20 % off',
	body: 'Hello {{name}}! Our spring sale starts today: 20 % off everything until Sunday. Reply STOP to stop these messages.',
}

/**
 * A campaign the demo team sent three days ago on its chat link to the visitors who wrote there,
 * completed, with what became of each message (most read, some answered, one the page could not
 * reach), so that the campaign manager has statistics on first sign-in. Its recipients' rows only:
 * the conversations are the demo's own threads. Once: left as it is when it exists.
 */
export async function seedDemoCampaign(db: DB, workspaceId: string, ownerId: string): Promise<number> {
	const channel = await db.selectFrom('channels').select('id').where('workspaceId', '=', workspaceId).where('slug', '=', demoChannel.slug).executeTakeFirst()
	if (!channel) return 0
	if (await db.selectFrom('campaigns').select('id').where('workspaceId', '=', workspaceId).where('name', '=', demoCampaign.name).executeTakeFirst()) return 0
	const identities = await db
		.selectFrom('contactIdentities')
		.leftJoin('conversations', 'conversations.identityId', 'contactIdentities.id')
		.select(['contactIdentities.id', 'contactIdentities.contactId', 'conversations.id as conversationId'])
		.where('contactIdentities.channelId', '=', channel.id)
		.orderBy('contactIdentities.createdAt')
		.execute()
	// One recipient per contact, as a campaign's frozen audience has.
	const recipients = [...new Map(identities.map((identity) => [identity.contactId, identity])).values()]
	if (recipients.length === 0) return 0
	const statusOf = (index: number): { status: RecipientStatus; reason: string | null } =>
		index === 7
			? { status: 'failed', reason: 'The visitor’s page was closed' }
			: index % 6 === 0
				? { status: 'replied', reason: null }
				: index % 3 === 0
					? { status: 'delivered', reason: null }
					: { status: 'read', reason: null }
	await db.transaction().execute(async (trx) => {
		const campaign = await trx
			.insertInto('campaigns')
			.values({
				workspaceId,
				channelId: channel.id,
				name: demoCampaign.name,
				body: demoCampaign.body,
				status: 'completed',
				recipientCount: recipients.length,
				createdBy: ownerId,
				startedAt: sql<Date>`now() - interval '3 days'`,
				finishedAt: sql<Date>`now() - interval '3 days' + interval '2 minutes'`,
				createdAt: sql<Date>`now() - interval '4 days'`,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('campaignRecipients')
			.values(
				recipients.map((identity, index) => ({
					campaignId: campaign.id,
					workspaceId,
					contactId: identity.contactId,
					identityId: identity.id,
					conversationId: identity.conversationId,
					...statusOf(index),
					attempts: 1,
					sentAt: sql<Date>`now() - interval '3 days' + ${index} * interval '2 seconds'`,
				})),
			)
			.execute()
	})
	return recipients.length
}
