import { beforeAll, describe, expect, test } from 'vitest'
import { inboundText, startWhatsAppFake, statusUpdate, type WhatsAppFake } from '../fakes/whatsapp.ts'
import { addAudience, addLabel, campaignAction, campaignsPath, createCampaign, recipientsOf } from './campaigns-fixtures.ts'
import { channelSuite, until } from './channels-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { type Team } from './workspaces-fixtures.ts'

const suite = channelSuite(startWhatsAppFake, 'WHATSAPP_API_URL', 'WhatsApp campaigns')
let fake: WhatsAppFake, api: TestApi, team: Team
beforeAll(() => ({ fake, api, team } = suite))

const appSecret = 'c0ffee0123456789abcdef0123456789'

describe('a WhatsApp campaign', () => {
	test('goes out as an approved template with each contact’s parameters; statuses and replies come back onto its recipients', async () => {
		const number = fake.addNumber()
		const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			headers: team.owner.auth,
			body: {
				kind: 'whatsapp',
				name: 'Offers',
				settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
				credentials: { accessToken: number.accessToken, appSecret },
			},
		})
		expect(created.status).toBe(201)
		const channel = created.body as { id: string; webhook: { url: string } }
		const webhook = `${api.url}${new URL(channel.webhook.url).pathname}`
		const label = await addLabel(team.workspace.id, 'buyers')
		const [salma, omar] = await addAudience(team.workspace.id, channel.id, [
			{ name: 'Salma', labels: [label.id], identity: '201000000001', attributes: { order: '#1042' } },
			{ name: 'Omar', labels: [label.id], identity: '201000000002' },
		])
		const base = { name: 'Shipping news', channelId: channel.id, labelsIn: [label.id] }

		// A template is required, approved, with as many parameters as it takes.
		const free = await api.request('POST', campaignsPath(team.workspace.id), { body: { ...base, body: 'Hi' }, headers: team.admin.auth })
		expect(free.status).toBe(422)
		const unknown = await api.request('POST', campaignsPath(team.workspace.id), {
			body: { ...base, template: { name: 'summer_sale', language: 'en_US', parameters: [] } },
			headers: team.admin.auth,
		})
		expect(unknown.status).toBe(422)
		const short = await api.request('POST', campaignsPath(team.workspace.id), {
			body: { ...base, template: { name: 'order_update', language: 'en_US', parameters: ['{{name}}'] } },
			headers: { ...team.admin.auth, 'Accept-Language': 'fr-x' },
		})
		expect(short.status).toBe(422)

		const campaign = await createCampaign(api, team.admin.auth, team.workspace.id, {
			...base,
			template: { name: 'order_update', language: 'en_US', parameters: ['{{name}}', '{{order | on its way}}'] },
		})
		expect(campaign.body).toBe('Hello {{1}}, your order {{2}} has shipped.')
		const preview = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}/message-preview?contactId=${salma!.id}`), {
			headers: team.agent.auth,
		})
		expect(preview.body).toMatchObject({ body: 'Hello Salma, your order #1042 has shipped.' })

		await campaignAction(api, team.admin.auth, team.workspace.id, campaign.id, 'start')
		await until(
			async () => (await testDb().selectFrom('campaigns').select('status').where('id', '=', campaign.id).executeTakeFirstOrThrow()).status === 'completed',
		)
		const sent = fake.received
			.filter((request) => (request.body as { type?: string } | null)?.type === 'template')
			.map((request) => request.body as { to: string; template: { components: Array<{ parameters: Array<{ text: string }> }> } })
		expect(sent.map((body) => [body.to, body.template.components[0]!.parameters.map((parameter) => parameter.text)]).sort()).toEqual([
			['201000000001', ['Salma', '#1042']],
			['201000000002', ['Omar', 'on its way']],
		])

		const recipients = await recipientsOf(campaign.id)
		const byContact = async (contactId: string) => (await recipientsOf(campaign.id)).find((recipient) => recipient.contactId === contactId)!
		const wamid = async (contactId: string) =>
			(
				await testDb()
					.selectFrom('messages')
					.select('externalId')
					.where('id', '=', (await byContact(contactId)).messageId!)
					.executeTakeFirstOrThrow()
			).externalId!
		expect(recipients.every((recipient) => recipient.status === 'sent')).toBe(true)

		// Delivered then read for Salma; Omar's failed with WhatsApp's reason.
		for (const status of ['delivered', 'read'] as const)
			await fake.postWebhook(webhook, appSecret, statusUpdate(number.phoneNumberId, await wamid(salma!.id), '201000000001', status))
		await fake.postWebhook(
			webhook,
			appSecret,
			statusUpdate(number.phoneNumberId, await wamid(omar!.id), '201000000002', 'failed', {
				code: 131026,
				title: 'Message undeliverable',
				details: 'Receiver is incapable of receiving this message',
			}),
		)
		await until(async () => (await byContact(salma!.id)).status === 'read' && (await byContact(omar!.id)).status === 'failed')
		expect((await byContact(omar!.id)).reason).toBeTruthy()

		// Salma answers: replied, in the conversation the campaign opened.
		await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, { waId: '201000000001', name: 'Salma' }, 'Thank you!'))
		await until(async () => (await byContact(salma!.id)).status === 'replied')
		const answer = await api.request('GET', campaignsPath(team.workspace.id, `/${campaign.id}`), { headers: team.agent.auth })
		expect(answer.body).toMatchObject({ totals: expect.objectContaining({ replied: 1, failed: 1, sent: 0 }), processed: 2 })
	})
})
