import { z } from 'zod'
import { channelKinds, channelStatuses } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { businessHoursAnswer } from '#api/workspaces/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type AutoReplies } from '#common/auto-replies.ts'
import { type ChannelJson } from './queries.ts'
import {
	channelParams,
	createApiChannelBody,
	createLinkChannelBody,
	createPageChannelBody,
	createTelegramChannelBody,
	createWhatsAppChannelBody,
	replaceCredentialsBody,
	updateApiChannelBody,
	updateLinkChannelBody,
	updateMessagingChannelBody,
} from './schemas.ts'

// The router reads `kind` first (channelKindBody), then validates with the schema of that kind.
const createChannelBody = z.union([createLinkChannelBody, createTelegramChannelBody, createWhatsAppChannelBody, createPageChannelBody, createApiChannelBody])
// And a channel's own kind picks which of these a change is held to.
const updateChannelBody = z.union([updateLinkChannelBody, updateMessagingChannelBody, updateApiChannelBody])
// Telegram's bot token, or Meta's credentials (WhatsApp, Messenger, Facebook, Instagram alike).
const credentialsBody = z.union([replaceCredentialsBody('telegram'), replaceCredentialsBody('whatsapp')])

const autoReply = z.object({
	enabled: z.boolean(),
	text: z.string(),
	translations: z
		.record(z.string())
		.openapi({ description: 'The text in other locales (`en-us`, `ar-eg`, `fr-x`): the customer’s when the channel knows it, else the workspace’s default.' }),
})
const autoRepliesAnswer = answerSchema<AutoReplies>()(
	z.object({ away: autoReply, greeting: autoReply }).openapi('AutoReplies', {
		description:
			'The away message (first message of a closed period; a chat link’s page also shows its text while closed, sent or not) and the greeting (first message of a new conversation).',
	}),
)

const channelAnswer = answerSchema<ChannelJson>()(
	z
		.object({
			id: z.string().uuid(),
			kind: z.enum(channelKinds),
			name: z.string(),
			slug: z.string().nullable(),
			enabled: z.boolean(),
			status: z.enum(channelStatuses),
			statusDetail: z.string().nullable(),
			failingSince: z.string().datetime().nullable().openapi({ description: 'Since when the provider has refused the channel’s token (status `error`).' }),
			settings: z.record(z.unknown()),
			campaignRatePerSecond: z.number().int().nullable().openapi({ description: 'Null: `kindRatePerSecond`.' }),
			kindRatePerSecond: z.number().int(),
			teamId: z.string().uuid().nullable().openapi({ description: 'The team the channel’s new conversations go to; null: none.' }),
			csatEnabled: z.boolean().openapi({ description: 'Asks the customer to rate a conversation once it is resolved.' }),
			businessHours: businessHoursAnswer.nullable().openapi({ description: 'Its own business hours; null: the workspace’s.' }),
			autoReplies: autoRepliesAnswer,
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
			today: z
				.object({ incoming: z.number().int(), outgoing: z.number().int() })
				.optional()
				.openapi({ description: 'In the list: messages since midnight in the workspace’s time zone.' }),
			webhook: z
				.object({ url: z.string().url(), verifyToken: z.string().nullable() })
				.nullable()
				.optional()
				.openapi({ description: 'On a created or read channel, for owners and admins: where the provider posts, and Meta’s verify token.' }),
			maskedCredentials: z
				.record(z.string())
				.nullable()
				.optional()
				.openapi({ description: 'On a read channel, for owners and admins: each credential’s last characters.' }),
			callback: z
				.object({ url: z.string(), enabled: z.boolean(), failingSince: z.string().datetime().nullable(), disabledAt: z.string().datetime().nullable() })
				.nullable()
				.optional()
				.openapi({
					description:
						'On a read API channel, for owners and admins: how the deliveries to its callback go (failing since, switched off after a day of failures; saving the callback URL turns it back on).',
				}),
			secret: z.string().optional().openapi({
				description: 'On a created API channel only: the `whsec_…` secret that signs the webhooks its callback receives (Standard Webhooks), shown this once.',
			}),
		})
		.openapi('Channel'),
)

/** `/v1/workspaces/{id}/channels` (router.ts): everyone reads, owners and admins write. */
export function documentChannels(docs: ApiDocs) {
	const channel = { description: 'The channel.', schema: channelAnswer }
	const withWebhook = { description: 'The channel, with `webhook` and `maskedCredentials` (null for a link).', schema: channelAnswer }
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The channels',
		params: workspaceParams,
		responses: { 200: { description: 'The channels, each with today’s messages.', schema: z.object({ channels: z.array(channelAnswer) }) } },
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Connect a channel',
		description:
			'Owners and admins. A chat link; a messaging channel whose credentials are checked with its provider, which is then pointed at our webhook; or an API channel (`kind: "api"`) whose `settings.callbackUrl` (https, not a private address) receives the team’s replies as signed webhooks, with the signing `secret` in this answer only.',
		params: workspaceParams,
		body: createChannelBody,
		responses: { 201: { description: 'The channel; a messaging channel with its `webhook`, an API channel with its `secret`.', schema: channelAnswer } },
		errors: [403, 409, 422, 502],
	})
	docs.add({
		method: 'get',
		path: '/:channelId',
		summary: 'A channel',
		description: 'Owners and admins also see its webhook and masked credentials.',
		params: channelParams,
		responses: { 200: withWebhook },
	})
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
		description:
			'Owners and admins. A link’s fields; of a messaging channel, only its name, switch, campaign rate and team. A team must be the workspace’s (422).',
		params: channelParams,
		body: updateChannelBody,
		responses: { 200: channel },
		errors: [403, 409, 422],
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
	docs.add({
		method: 'post',
		path: '/:channelId/callback-secret',
		summary: 'Roll an API channel’s callback secret',
		description:
			'Owners and admins; an API channel only. A new secret for the signatures of its callback, shown this once. For a day every callback is signed with it and with the secret it replaced (two signatures in `webhook-signature`), so the receiver can switch without refusing one; then with the new one alone.',
		params: channelParams,
		responses: {
			200: {
				description: 'The new secret, and until when the one it replaced still signs (null when that one could not be opened).',
				schema: z.object({ secret: z.string(), previousSecretExpiresAt: z.string().datetime().nullable() }),
			},
		},
		errors: [403],
	})
	docs.add({
		method: 'delete',
		path: '/:channelId',
		summary: 'Delete a channel',
		description: 'Owners and admins; the provider stops sending us its events first.',
		params: channelParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
}
