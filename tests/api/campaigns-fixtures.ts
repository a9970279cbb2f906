import crypto from 'node:crypto'
import { expect } from 'vitest'
import { type CampaignJson } from '#api/campaigns/queries.ts'
import { testDb, type TestApi } from './harness.ts'

export type { CampaignJson }

export const campaignsPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/campaigns${rest}`

/** Contacts of the workspace, each with an identity on `channelId` (unless `identity: false`) and the labels given. */
export async function addAudience(
	workspaceId: string,
	channelId: string | null,
	people: Array<{ name: string; labels?: string[]; identity?: string | false; company?: string; attributes?: Record<string, string>; optedOut?: boolean }>,
) {
	const db = testDb()
	const contacts = []
	for (const person of people) {
		const contact = await db
			.insertInto('contacts')
			.values({
				workspaceId,
				name: person.name,
				company: person.company ?? null,
				attributes: person.attributes ?? {},
				avatarColor: '#123456',
				optedOutAt: person.optedOut ? new Date() : null,
			})
			.returningAll()
			.executeTakeFirstOrThrow()
		if (channelId && person.identity !== false)
			await db
				.insertInto('contactIdentities')
				.values({ workspaceId, channelId, contactId: contact.id, externalId: person.identity ?? crypto.randomBytes(6).toString('hex') })
				.execute()
		for (const labelId of person.labels ?? []) await db.insertInto('contactLabels').values({ workspaceId, contactId: contact.id, labelId }).execute()
		contacts.push(contact)
	}
	return contacts
}

export async function addLabel(workspaceId: string, title: string) {
	return testDb()
		.insertInto('labels')
		.values({ workspaceId, title: `${title}-${crypto.randomBytes(3).toString('hex')}`, color: '#336699' })
		.returningAll()
		.executeTakeFirstOrThrow()
}

export async function createCampaign(api: TestApi, auth: Record<string, string>, workspaceId: string, body: Record<string, unknown>): Promise<CampaignJson> {
	const response = await api.request('POST', campaignsPath(workspaceId), { body, headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as CampaignJson
}

export async function campaignAction(
	api: TestApi,
	auth: Record<string, string>,
	workspaceId: string,
	campaignId: string,
	action: 'start' | 'pause' | 'resume' | 'cancel',
): Promise<CampaignJson> {
	const response = await api.request('POST', campaignsPath(workspaceId, `/${campaignId}/${action}`), { headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as CampaignJson
}

export async function recipientsOf(campaignId: string) {
	return testDb().selectFrom('campaignRecipients').selectAll().where('campaignId', '=', campaignId).orderBy('id').execute()
}
