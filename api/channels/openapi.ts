import { z } from 'zod'
import { type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import {
	channelParams,
	createLinkChannelBody,
	createPageChannelBody,
	createTelegramChannelBody,
	createWhatsAppChannelBody,
	replaceCredentialsBody,
	updateLinkChannelBody,
	updateMessagingChannelBody,
} from './schemas.ts'

// The router reads `kind` first (channelKindBody), then validates with the schema of that kind.
const createChannelBody = z.union([createLinkChannelBody, createTelegramChannelBody, createWhatsAppChannelBody, createPageChannelBody])
// And a channel's own kind picks which of these a change is held to.
const updateChannelBody = z.union([updateLinkChannelBody, updateMessagingChannelBody])
// Telegram's bot token, or Meta's credentials (WhatsApp, Messenger, Facebook, Instagram alike).
const credentialsBody = z.union([replaceCredentialsBody('telegram'), replaceCredentialsBody('whatsapp')])

/** `/v1/workspaces/{id}/channels` (router.ts): everyone reads, owners and admins write. */
export function documentChannels(docs: ApiDocs) {
	const channel = 'The channel.'
	const withWebhook = 'The channel, with `webhook` (where to point the provider, and Meta’s verify token) and `maskedCredentials` (their last characters); both null for a link.'
	docs.add({ method: 'get', path: '/', summary: 'The channels', params: workspaceParams, responses: { 200: '`{ channels }`.' } })
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Connect a channel',
		description: 'Owners and admins. A chat link, or a messaging channel whose credentials are checked with its provider, which is then pointed at our webhook.',
		params: workspaceParams,
		body: createChannelBody,
		responses: { 201: 'The channel; a messaging channel with its `webhook`.' },
		errors: [403, 409, 422, 502],
	})
	docs.add({ method: 'get', path: '/:channelId', summary: 'A channel', description: 'Owners and admins also see its webhook and masked credentials.', params: channelParams, responses: { 200: withWebhook } })
	docs.add({
		method: 'get',
		path: '/:channelId/templates',
		summary: 'The provider’s approved message templates (WhatsApp)',
		params: channelParams,
		responses: { 200: '`{ templates }`.' },
		errors: [422, 502],
	})
	docs.add({
		method: 'patch',
		path: '/:channelId',
		summary: 'Change a channel',
		description: 'Owners and admins. A link’s fields; of a messaging channel, only its name, switch and campaign rate.',
		params: channelParams,
		body: updateChannelBody,
		responses: { 200: channel },
		errors: [403, 409],
	})
	docs.add({
		method: 'put',
		path: '/:channelId/credentials',
		summary: 'Replace some of a messaging channel’s credentials',
		description: 'Owners and admins. Checked with the provider as on connect; the values not given are kept.',
		params: channelParams,
		body: credentialsBody,
		responses: { 200: withWebhook },
		errors: [403, 422, 502],
	})
	docs.add({ method: 'delete', path: '/:channelId', summary: 'Delete a channel', description: 'Owners and admins; the provider stops sending us its events first.', params: channelParams, responses: { 204: 'Deleted.' }, errors: [403] })
}
