import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { sendCampaignBatch, sendJobKey } from '#api/campaigns/sending.ts'
import { createDb } from '#api/db/database.ts'
import { type Channel } from '#api/db/schema.ts'
import { removeJob } from '#api/jobs/queue.ts'
import { addAudience, addLabel, campaignAction, campaignsPath, createCampaign, recipientsOf, type CampaignJson } from './campaigns-fixtures.ts'
import { createLinkChannel, recordingRealtime } from './conversations-fixtures.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
let team: Team
let channel: Channel
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Campaigns')
	channel = await createLinkChannel(team.workspace.id, 'Website')
})
afterAll(() => api.close())

const draft = (extra: Record<string, unknown> = {}) => ({ name: 'Spring sale', channelId: channel.id, body: 'Hello {{name}}!', ...extra })

describe('the audience', () => {
	test('labels in, minus labels out, minus opted-out contacts and contacts without an identity on the channel', async () => {
		const [vip, churned] = await Promise.all([addLabel(team.workspace.id, 'vip'), addLabel(team.workspace.id, 'churned')])
		const other = await createLinkChannel(team.workspace.id, 'Other site')
		await addAudience(team.workspace.id, channel.id, [
			{ name: 'Amal (vip)', labels: [vip.id] },
			{ name: 'Bruno (vip)', labels: [vip.id] },
			{ name: 'Chloé (vip, churned)', labels: [vip.id, churned.id] },
			{ name: 'Dina (vip, opted out)', labels: [vip.id], optedOut: true },
			{ name: 'Eli (no label)' },
		])
		await addAudience(team.workspace.id, other.id, [{ name: 'Farid (vip, elsewhere)', labels: [vip.id] }])
		await addAudience(team.workspace.id, null, [{ name: 'Gil (vip, no identity)', labels: [vip.id] }])

		const preview = async (body: Record<string, unknown>, auth = team.owner.auth) =>
			api.request('POST', campaignsPath(team.workspace.id, '/audience'), { body: { channelId: channel.id, ...body }, headers: auth })
		const vips = await preview({ labelsIn: [vip.id], labelsOut: [churned.id] })
		expect(vips.status).toBe(200)
		expect(vips.body).toEqual({ count: 2, recipients: [expect.objectContaining({ name: 'Amal (vip)' }), expect.objectContaining({ name: 'Bruno (vip)' })] })
		// An agent may look too; nothing is kept or sent.
		const everyone = await preview({}, team.agent.auth)
		expect((everyone.body as { count: number }).count).toBe(4)
		expect((await preview({ labelsIn: [vip.id] })).body).toMatchObject({ count: 3 })

		// A draft says whom it will reach, counted as the form counts it, in the list and alone.
		const campaign = await createCampaign(api, team.admin.auth, team.workspace.id, draft({ labelsIn: [vip.id], labelsOut: [churned.id] }))
		expect(campaign).toMatchObject({ status: 'draft', recipientCount: 0, audienceCount: 2 })
		const listed = async () =>
			((await api.request('GET', campaignsPath(team.workspace.id), { headers: team.agent.auth })).body as { campaigns: CampaignJson[] }).campaigns.find(
				(each) => each.id === campaign.id,
			)
		expect(await listed()).toMatchObject({ audienceCount: 2 })

		// Starting freezes the list: a contact labelled afterwards is not added, nor counted.
		const started = await campaignAction(api, team.admin.auth, team.workspace.id, campaign.id, 'start')
		expect(started).toMatchObject({ status: 'running', recipientCount: 2, audienceCount: 2, totals: expect.objectContaining({ queued: 2 }) })
		await addAudience(team.workspace.id, channel.id, [{ name: 'Hind (vip, later)', labels: [vip.id] }])
		expect((await recipientsOf(campaign.id)).length).toBe(2)
		expect(await listed()).toMatchObject({ audienceCount: 2 })
		const later = await createCampaign(api, team.admin.auth, team.workspace.id, draft({ labelsIn: [vip.id], labelsOut: [churned.id] }))
		expect(later).toMatchObject({ audienceCount: 3 })
		expect((await api.request('DELETE', campaignsPath(team.workspace.id, `/${later.id}`), { headers: team.admin.auth })).status).toBe(204)
		const cancelled = await campaignAction(api, team.admin.auth, team.workspace.id, campaign.id, 'cancel')
		expect(cancelled).toMatchObject({ status: 'cancelled', totals: expect.objectContaining({ skipped: 2, queued: 0 }) })
		const list = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}/recipients?status=skipped`), { headers: team.agent.auth })
		expect(list.body).toMatchObject({
			total: 2,
			recipients: [{ status: 'skipped', reason: 'The campaign was cancelled before this contact’s turn.'.replace('’', "'") }, expect.anything()],
		})
		const csv = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}/recipients?format=csv`), { headers: team.agent.auth })
		expect(csv.headers.get('content-type')).toContain('text/csv')
		expect(String(csv.body).split('\r\n')[0]).toBe('contact_id,name,status,reason,sent_at')
		expect(String(csv.body).trim().split('\r\n')).toHaveLength(3)
	})

	test('the message preview fills the variables for one real contact, with fallbacks', async () => {
		const [contact, bare] = await addAudience(team.workspace.id, channel.id, [
			{ name: 'Yara', company: 'Nile Tours', attributes: { plan: 'Gold' } },
			{ name: 'Zed' },
		])
		const campaign = await createCampaign(
			api,
			team.owner.auth,
			team.workspace.id,
			draft({ body: 'Hi {{name}} of {{company | your team}}, your {{plan|free}} plan' }),
		)
		const one = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}/message-preview?contactId=${contact!.id}`), {
			headers: team.agent.auth,
		})
		expect(one.body).toEqual({ contactId: contact!.id, name: 'Yara', body: 'Hi Yara of Nile Tours, your Gold plan' })
		const other = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}/message-preview?contactId=${bare!.id}`), {
			headers: team.agent.auth,
		})
		expect(other.body).toMatchObject({ body: 'Hi Zed of your team, your free plan' })
	})
})

describe('roles and isolation', () => {
	test('owners and admins write; agents read; outsiders see nothing (404)', async () => {
		const campaign = await createCampaign(api, team.owner.auth, team.workspace.id, draft())
		expect(campaign).toMatchObject({ name: 'Spring sale', status: 'draft', channelKind: 'link', body: 'Hello {{name}}!', ratePerSecond: 50, recipientCount: 0 })
		const agent = team.agent.auth
		expect((await api.request('GET', campaignsPath(team.workspace.id), { headers: agent })).body).toMatchObject({
			campaigns: expect.arrayContaining([expect.objectContaining({ id: campaign.id })]),
		})
		expect((await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}`), { headers: agent })).body).toMatchObject({ id: campaign.id })
		for (const [method, rest, body] of [
			['POST', '', draft()],
			['PATCH', `/${campaign.id}`, { name: 'Mine' }],
			['DELETE', `/${campaign.id}`, undefined],
			['POST', `/${campaign.id}/start`, undefined],
			['POST', `/${campaign.id}/cancel`, undefined],
		] as const) {
			const response = await api.request(method, campaignsPath(team.workspace.id, rest), { body, headers: agent })
			expect(response.status, `${method} ${rest}`).toBe(403)
		}
		const renamed = await api.request('PATCH', campaignsPath(team.workspace.id, `/${campaign.id}`), { body: { name: 'Summer sale' }, headers: team.admin.auth })
		expect(renamed.body).toMatchObject({ name: 'Summer sale', body: 'Hello {{name}}!' })

		const outsider = team.outsider.auth
		expect((await api.request('GET', campaignsPath(team.workspace.id), { headers: outsider })).status).toBe(404)
		// Their own workspace does not reach this campaign nor this channel.
		expect((await api.request('GET', campaignsPath(team.elsewhere.id, `/${campaign.id}`), { headers: outsider })).body).toEqual({
			message: 'This campaign does not exist.',
			statusCode: 404,
			details: null,
		})
		expect((await api.request('POST', campaignsPath(team.elsewhere.id, `/${campaign.id}/start`), { headers: outsider })).status).toBe(404)
		const foreign = await api.request('POST', campaignsPath(team.elsewhere.id), { body: draft(), headers: outsider })
		expect(foreign.status).toBe(422)
		expect((await api.request('GET', campaignsPath(team.workspace.id, '/not-a-uuid'), { headers: agent })).status).toBe(404)

		expect((await api.request('DELETE', campaignsPath(team.workspace.id, `/${campaign.id}`), { headers: team.owner.auth })).status).toBe(204)
		expect((await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}`), { headers: agent })).status).toBe(404)
	})
})

describe('bad input is a translated 4xx', () => {
	test('in the three languages', async () => {
		const cases: Array<[string, Record<string, unknown>, number, string]> = [
			['en-us', draft({ body: '  ' }), 400, 'Write the message.'],
			['fr-x', draft({ body: '' }), 400, 'Écrivez le message.'],
			['ar-eg', draft({ body: '' }), 400, 'اكتب الرسالة.'],
			['fr-x', draft({ scheduledAt: 'tomorrow-ish' }), 400, 'Saisissez une date et une heure.'],
			['en-us', draft({ labelsIn: ['00000000-0000-4000-8000-000000000000'] }), 422, 'One of these labels no longer exists.'],
			['ar-eg', draft({ channelId: '00000000-0000-4000-8000-000000000000' }), 422, 'اختر قناة من مساحة العمل هذه.'],
			['en-us', draft({ template: { name: 'promo', language: 'en', parameters: [] } }), 422, ''],
		]
		for (const [locale, body, status, message] of cases) {
			const response = await api.request('POST', campaignsPath(team.workspace.id), { body, headers: { ...team.owner.auth, 'Accept-Language': locale } })
			expect(response.status, JSON.stringify(response.body)).toBe(status)
			const answer = response.body as { message: string; details: unknown }
			if (message) expect(JSON.stringify(answer)).toContain(message)
		}
		const extra = await api.request('POST', campaignsPath(team.workspace.id), { body: draft({ surprise: 1 }), headers: team.owner.auth })
		expect(extra.status).toBe(400)
		const started = await createCampaign(api, team.owner.auth, team.workspace.id, draft())
		await campaignAction(api, team.owner.auth, team.workspace.id, started.id, 'cancel')
		const again = await api.request('POST', campaignsPath(team.workspace.id, `/${started.id}/start`), {
			headers: { ...team.owner.auth, 'Accept-Language': 'fr-x' },
		})
		expect(again.body).toEqual({ message: 'Une campagne annulée ne peut pas être lancée.', statusCode: 409, details: null })
		const edit = await api.request('PATCH', campaignsPath(team.workspace.id, `/${started.id}`), { body: { name: 'x' }, headers: team.owner.auth })
		expect(edit.status).toBe(409)
		// A switched-off channel sends nothing: starting says why.
		const off = await createLinkChannel(team.workspace.id, 'Switched off')
		await testDb().updateTable('channels').set({ enabled: false }).where('id', '=', off.id).execute()
		const idle = await createCampaign(api, team.owner.auth, team.workspace.id, draft({ channelId: off.id }))
		const refused = await api.request('POST', campaignsPath(team.workspace.id, `/${idle.id}/start`), {
			headers: { ...team.owner.auth, 'Accept-Language': 'ar-eg' },
		})
		expect(refused.body).toEqual({ message: 'القناة متوقفة.', statusCode: 409, details: null })
		const bad = await api.request('GET', campaignsPath(team.workspace.id, `/${idle.id}/recipients?status=lost`), { headers: team.agent.auth })
		expect(bad.status).toBe(400)
	})
})

/** The pending start of a scheduled campaign, in the job queue. */
async function startJob(campaignId: string) {
	const { rows } = await sql<{ runAt: Date }>`select run_at from graphile_worker.jobs where key = ${`campaign-start:${campaignId}`}`.execute(testDb())
	return rows[0]
}

describe('scheduling', () => {
	test('a date and time is read in the workspace time zone, and the start waits for it', async () => {
		const tokyo = await createTeam('Tokyo campaigns')
		await testDb().updateTable('workspaces').set({ timezone: 'Asia/Tokyo' }).where('id', '=', tokyo.workspace.id).execute()
		const site = await createLinkChannel(tokyo.workspace.id)
		await addAudience(tokyo.workspace.id, site.id, [{ name: 'Kenji' }])
		const campaign = await createCampaign(api, tokyo.admin.auth, tokyo.workspace.id, {
			name: 'New year',
			channelId: site.id,
			body: 'Hi',
			scheduledAt: '2099-01-01T09:00',
		})
		// 09:00 in Tokyo (UTC+9) is midnight UTC.
		expect(campaign.scheduledAt).toBe('2099-01-01T00:00:00.000Z')
		const scheduled = await campaignAction(api, tokyo.admin.auth, tokyo.workspace.id, campaign.id, 'start')
		expect(scheduled).toMatchObject({ status: 'scheduled', recipientCount: 0 })
		expect((await startJob(campaign.id))?.runAt.toISOString()).toBe('2099-01-01T00:00:00.000Z')
		// Edited while scheduled: a draft again, the pending start removed.
		const edited = await api.request('PATCH', campaignsPath(tokyo.workspace.id, `/${campaign.id}`), {
			body: { scheduledAt: '2099-07-01T09:00' },
			headers: tokyo.admin.auth,
		})
		expect(edited.body).toMatchObject({ status: 'draft', scheduledAt: '2099-07-01T00:00:00.000Z' })
		expect(await startJob(campaign.id)).toBeUndefined()
		const done: CampaignJson = await campaignAction(api, tokyo.admin.auth, tokyo.workspace.id, campaign.id, 'cancel')
		expect(done.status).toBe('cancelled')
	})
})

describe("the channel's campaign rate", () => {
	const channelPath = (workspaceId: string, channelId: string) => `/v1/workspaces/${workspaceId}/channels/${channelId}`

	test('owners and admins set it (1–1000, null for the kind’s default); agents may not; another workspace’s channel is a 404', async () => {
		const site = await createLinkChannel(team.workspace.id, 'Rated site')
		const read = await api.request('GET', channelPath(team.workspace.id, site.id), { headers: team.agent.auth })
		expect(read.body).toMatchObject({ campaignRatePerSecond: null, kindRatePerSecond: 50 })
		const set = (auth: Record<string, string>, value: unknown, workspaceId = team.workspace.id) =>
			api.request('PATCH', channelPath(workspaceId, site.id), { body: { campaignRatePerSecond: value }, headers: auth })
		expect((await set(team.owner.auth, 12)).body).toMatchObject({ campaignRatePerSecond: 12, kindRatePerSecond: 50 })
		expect((await set(team.admin.auth, 7)).body).toMatchObject({ campaignRatePerSecond: 7 })
		expect((await set(team.agent.auth, 9)).status).toBe(403)
		expect((await set(team.outsider.auth, 9)).status).toBe(404)
		expect((await set(team.outsider.auth, 9, team.elsewhere.id)).status).toBe(404)
		expect((await api.request('GET', channelPath(team.workspace.id, site.id), { headers: team.owner.auth })).body).toMatchObject({ campaignRatePerSecond: 7 })

		for (const value of [0, 1001, 2.5, '10']) {
			const refused = await api.request('PATCH', channelPath(team.workspace.id, site.id), {
				body: { campaignRatePerSecond: value },
				headers: { ...team.owner.auth, 'Accept-Language': 'fr-x' },
			})
			expect(refused.status, String(value)).toBe(400)
			expect((refused.body as { details: { fields: Record<string, string[]> } }).details.fields.campaignRatePerSecond?.[0]).toBeTruthy()
		}
		// A campaign with no rate of its own reads the channel's; its own still wins; none: the kind's default again.
		const plain = await createCampaign(api, team.owner.auth, team.workspace.id, draft({ channelId: site.id }))
		const own = await createCampaign(api, team.owner.auth, team.workspace.id, draft({ channelId: site.id, ratePerSecond: 3 }))
		expect(plain.ratePerSecond).toBe(7)
		expect(own.ratePerSecond).toBe(3)
		expect((await set(team.owner.auth, null)).body).toMatchObject({ campaignRatePerSecond: null })
		expect((await api.request('GET', campaignsPath(team.workspace.id, `/${plain.id}`), { headers: team.agent.auth })).body).toMatchObject({ ratePerSecond: 50 })
		// A messaging channel takes it too (its other settings come from its provider).
		const telegram = await testDb()
			.insertInto('channels')
			.values({ workspaceId: team.workspace.id, kind: 'telegram', name: 'Bot' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const patched = await api.request('PATCH', channelPath(team.workspace.id, telegram.id), { body: { campaignRatePerSecond: 25 }, headers: team.admin.auth })
		expect(patched.body).toMatchObject({ campaignRatePerSecond: 25, kindRatePerSecond: 30 })
	})

	test('a batch sends at the campaign’s rate, else the channel’s, else the kind’s default', async () => {
		const site = await createLinkChannel(team.workspace.id, 'Batch site')
		await testDb().updateTable('channels').set({ campaignRatePerSecond: 4 }).where('id', '=', site.id).execute()
		const label = await addLabel(team.workspace.id, 'batch')
		await addAudience(
			team.workspace.id,
			site.id,
			Array.from({ length: 10 }, (_, index) => ({ name: `Batch ${index}`, labels: [label.id] })),
		)
		const batchOf = async (extra: Record<string, unknown>) => {
			const campaign = await createCampaign(api, team.owner.auth, team.workspace.id, draft({ channelId: site.id, labelsIn: [label.id], ...extra }))
			await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'start')
			// This batch alone: no job runner may send the campaign's next ones meanwhile.
			await removeJob(testDb(), sendJobKey(campaign.id))
			await sendCampaignBatch(testDb(), recordingRealtime(), api.config, campaign.id)
			const recipients = await recipientsOf(campaign.id)
			const sent = recipients.filter((recipient) => recipient.status !== 'queued').length
			await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'cancel')
			return sent
		}
		expect(await batchOf({})).toBe(4)
		// Another campaign's claims in the last second are taken off the channel's rate: wait it out.
		await new Promise((resolve) => setTimeout(resolve, 1100))
		expect(await batchOf({ ratePerSecond: 2 })).toBe(2)
	})
})

describe('claiming a batch', () => {
	test('takes no more recipients than the rate, whatever plan PostgreSQL picks (a nested loop ran the LIMIT again per row)', async () => {
		const site = await createLinkChannel(team.workspace.id, 'Claims site')
		await testDb().updateTable('channels').set({ campaignRatePerSecond: 3 }).where('id', '=', site.id).execute()
		const label = await addLabel(team.workspace.id, 'claims')
		await addAudience(
			team.workspace.id,
			site.id,
			Array.from({ length: 10 }, (_, index) => ({ name: `Claim ${index}`, labels: [label.id] })),
		)
		const campaign = await createCampaign(api, team.owner.auth, team.workspace.id, draft({ channelId: site.id, labelsIn: [label.id] }))
		await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'start')
		await removeJob(testDb(), sendJobKey(campaign.id))
		// The plan a busy database chose: no hashing, no materialising, so the IN (… LIMIT … SKIP LOCKED) is rescanned per row.
		const url = new URL(inject('databaseUrl'))
		url.searchParams.set(
			'options',
			'-c enable_hashjoin=off -c enable_hashagg=off -c enable_mergejoin=off -c enable_material=off -c enable_memoize=off -c enable_sort=off',
		)
		const forced = createDb(url.toString(), 2)
		try {
			await sendCampaignBatch(forced, recordingRealtime(), api.config, campaign.id)
		} finally {
			await forced.destroy()
		}
		const recipients = await recipientsOf(campaign.id)
		expect(recipients.filter((recipient) => recipient.status !== 'queued')).toHaveLength(3)
		await campaignAction(api, team.owner.auth, team.workspace.id, campaign.id, 'cancel')
	})
})

describe('opting back in', () => {
	test('owners and admins clear a contact’s opt-out; agents may not; another workspace’s contact is a 404', async () => {
		const site = await createLinkChannel(team.workspace.id, 'Opt-in site')
		const [hala, omar] = await addAudience(team.workspace.id, site.id, [
			{ name: 'Hala (opted out)', optedOut: true },
			{ name: 'Omar (opted out)', optedOut: true },
		])
		const contactPath = (id: string, rest = '', workspaceId = team.workspace.id) => `/v1/workspaces/${workspaceId}/contacts/${id}${rest}`
		const audience = async () =>
			(await api.request('POST', campaignsPath(team.workspace.id, '/audience'), { body: { channelId: site.id }, headers: team.agent.auth })).body as {
				count: number
			}
		expect(await audience()).toMatchObject({ count: 0 })
		const read = await api.request('GET', contactPath(hala!.id), { headers: team.agent.auth })
		expect((read.body as { optedOutAt: string | null }).optedOutAt).toBe(hala!.optedOutAt!.toISOString())

		const agent = await api.request('POST', contactPath(hala!.id, '/opt-in'), { headers: { ...team.agent.auth, 'Accept-Language': 'fr-x' } })
		expect(agent.status).toBe(403)
		expect((agent.body as { message: string }).message).toBeTruthy()
		expect((await api.request('POST', contactPath(hala!.id, '/opt-in', team.elsewhere.id), { headers: team.outsider.auth })).status).toBe(404)
		expect((await api.request('POST', contactPath(hala!.id, '/opt-in'), { headers: team.outsider.auth })).status).toBe(404)
		expect((await api.request('POST', contactPath('not-a-uuid', '/opt-in'), { headers: team.owner.auth })).status).toBe(404)
		expect((await api.request('POST', contactPath('00000000-0000-4000-8000-000000000000', '/opt-in'), { headers: team.owner.auth })).body).toMatchObject({
			statusCode: 404,
		})
		expect(await audience()).toMatchObject({ count: 0 })

		const admin = await api.request('POST', contactPath(hala!.id, '/opt-in'), { headers: team.admin.auth })
		expect(admin.status).toBe(200)
		expect(admin.body).toMatchObject({ id: hala!.id, optedOutAt: null })
		const owner = await api.request('POST', contactPath(omar!.id, '/opt-in'), { headers: team.owner.auth })
		expect(owner.body).toMatchObject({ id: omar!.id, optedOutAt: null })
		// Again: nothing to clear, the same answer.
		expect((await api.request('POST', contactPath(omar!.id, '/opt-in'), { headers: team.owner.auth })).status).toBe(200)
		expect(await audience()).toMatchObject({ count: 2 })
	})
})
