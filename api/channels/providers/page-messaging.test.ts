import { describe, expect, test } from 'vitest'
import { facebookProvider } from './facebook.ts'
import { instagramProvider } from './instagram.ts'
import { messengerProvider } from './messenger.ts'
import { type ProviderChannel, ProviderError } from './provider.ts'

const channel = (kind: ProviderChannel['kind'], settings: Record<string, unknown>): ProviderChannel => ({
	id: 'c',
	workspaceId: 'w',
	kind,
	settings,
	credentials: {},
	webhookSecret: null,
})
const page = channel('messenger', { pageId: '111' })
const at = 1_700_000_000_000

describe('the Messenger Platform’s webhooks', () => {
	test('a message, an echo, a delivery and a read become events; the page’s own id is never a customer', () => {
		const events = messengerProvider.parseWebhook!(page, {
			object: 'page',
			entry: [
				{
					id: '111',
					time: at,
					messaging: [
						{ sender: { id: '222' }, recipient: { id: '111' }, timestamp: at, message: { mid: 'm_1', text: 'Hi' } },
						{ sender: { id: '222' }, recipient: { id: '111' }, timestamp: at, message: { mid: 'm_2', attachments: [{ type: 'image' }, { type: 'file' }] } },
						{ sender: { id: '111' }, recipient: { id: '222' }, timestamp: at, message: { mid: 'm_3', text: 'From the Suite', is_echo: true } },
						{ sender: { id: '222' }, recipient: { id: '111' }, delivery: { mids: ['m_9'], watermark: at } },
						{ sender: { id: '222' }, recipient: { id: '111' }, timestamp: at, read: { watermark: at + 1 } },
					],
				},
			],
		})
		expect(events).toEqual([
			{ type: 'message', externalId: 'm_1', from: { externalId: '222', name: null }, body: 'Hi', sentAt: new Date(at) },
			{ type: 'message', externalId: 'm_2', from: { externalId: '222', name: null }, body: '[image] [file]', sentAt: new Date(at) },
			{ type: 'echo', externalId: 'm_3', to: '222', body: 'From the Suite', sentAt: new Date(at) },
			{ type: 'status', externalId: 'm_9', status: 'delivered', at: new Date(at) },
			{ type: 'watermark', contact: '222', status: 'delivered', upTo: new Date(at) },
			{ type: 'watermark', contact: '222', status: 'read', upTo: new Date(at + 1) },
		])
	})

	test('another page’s entries, another object, and shapes that are not Meta’s give nothing', () => {
		const message = { sender: { id: '222' }, message: { mid: 'm_1', text: 'Hi' } }
		expect(messengerProvider.parseWebhook!(page, { object: 'page', entry: [{ id: '999', messaging: [message] }] })).toEqual([])
		expect(messengerProvider.parseWebhook!(page, { object: 'instagram', entry: [{ id: '111', messaging: [message] }] })).toEqual([])
		for (const body of [
			null,
			'x',
			{ object: 'page', entry: 5 },
			{ object: 'page', entry: [null, { id: '111', messaging: [null, 7] }] },
			{ object: 'page', entry: [{ id: '111', messaging: [{ sender: { id: '222' }, read: { watermark: 'soon' } }] }] },
		]) {
			expect(messengerProvider.parseWebhook!(page, body)).toEqual([])
		}
	})

	test('Facebook reads the same page webhooks; Instagram its own, by the Instagram account’s id, and reads by mid', () => {
		const message = { sender: { id: '222' }, recipient: { id: '111' }, timestamp: at, message: { mid: 'm_1', text: 'Hi' } }
		expect(
			facebookProvider.parseWebhook!(channel('facebook', { pageId: '111' }), { object: 'page', entry: [{ id: '111', messaging: [message] }] }),
		).toHaveLength(1)
		const instagram = channel('instagram', { pageId: '111', instagramAccountId: '178' })
		expect(instagramProvider.parseWebhook!(instagram, { object: 'page', entry: [{ id: '111', messaging: [message] }] })).toEqual([])
		expect(
			instagramProvider.parseWebhook!(instagram, {
				object: 'instagram',
				entry: [{ id: '178', messaging: [{ sender: { id: '333' }, recipient: { id: '178' }, timestamp: at, read: { mid: 'm_7' } }] }],
			}),
		).toEqual([{ type: 'status', externalId: 'm_7', status: 'read', at: new Date(at) }])
	})
})

describe('Graph errors, in words', () => {
	test.each([
		[new ProviderError('unauthorized', 'x', { code: 190 }), 'providerErrors.tokenInvalid'],
		[new ProviderError('refused', 'x', { code: 10, subcode: 2018278 }), 'providerErrors.metaWindowClosed'],
		[new ProviderError('refused', 'x', { code: 551, subcode: 1545041 }), 'providerErrors.metaRecipientUnavailable'],
		[new ProviderError('refused', 'x', { code: 100, subcode: 2018001 }), 'providerErrors.metaRecipientUnknown'],
		[new ProviderError('refused', 'x', { code: 100, subcode: 33 }), 'providerErrors.metaPageNotFound'],
		[new ProviderError('rate-limited', 'x', { code: 613 }), 'providerErrors.rateLimited'],
		[new ProviderError('unavailable', 'x', { status: 503 }), 'providerErrors.unavailable'],
		[new ProviderError('refused', 'x', { code: 100 }), 'providerErrors.refused'],
	])('%s is %s', (error, key) => {
		expect(messengerProvider.describeError!(error)).toEqual({ key, values: { detail: 'x' } })
	})
})
