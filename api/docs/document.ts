import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi'
import { type OpenAPIObject } from 'openapi3-ts/oas30'
import { apiDocs, errorBodySchema, securitySchemes } from '#api/http/openapi.ts'
import { documentAccessTokens } from '#api/access-tokens/openapi.ts'
import { documentApiChannel } from '#api/api-channel/openapi.ts'
import { documentAttachments } from '#api/attachments/openapi.ts'
import { documentAuditLog } from '#api/audit/openapi.ts'
import { documentAuth } from '#api/auth/openapi.ts'
import { documentAutomation } from '#api/automation/openapi.ts'
import { documentNotificationPreferences, documentNotifications, documentUserNotifications } from '#api/notifications/openapi.ts'
import { documentCampaigns } from '#api/campaigns/openapi.ts'
import { documentCannedResponses } from '#api/canned-responses/openapi.ts'
import { documentChannels } from '#api/channels/openapi.ts'
import { documentContacts } from '#api/contacts/openapi.ts'
import { documentConversations } from '#api/conversations/openapi.ts'
import { documentLabels } from '#api/labels/openapi.ts'
import { documentPresence, documentPush } from '#api/notifications/push-openapi.ts'
import { documentTeams } from '#api/teams/openapi.ts'
import { documentOutgoingWebhooks } from '#api/outgoing-webhooks/openapi.ts'
import { documentLink } from '#api/link/openapi.ts'
import { documentRealtime } from '#api/realtime/openapi.ts'
import { documentReports } from '#api/reports/openapi.ts'
import { documentUnsubscribe } from '#api/notifications/unsubscribe-openapi.ts'
import { documentUser, documentWorkspaces } from '#api/workspaces/openapi.ts'
import { documentDocs } from './openapi.ts'

/**
 * The `/v1` API's OpenAPI document, from the schemas its routes validate with: each router's
 * `openapi.ts` adds its operations at the path `createApi` (api/index.ts) mounts it at.
 */
export function apiDocument(version: string): OpenAPIObject {
	const registry = new OpenAPIRegistry()
	registry.register('ErrorBody', errorBodySchema)
	for (const [name, scheme] of Object.entries(securitySchemes)) registry.registerComponent('securitySchemes', name, scheme)

	documentDocs(apiDocs(registry, '', 'Reference'))
	documentAuth(apiDocs(registry, '/auth', 'Auth'))
	documentContacts(apiDocs(registry, '/workspaces/:id/contacts', 'Contacts'))
	documentLabels(apiDocs(registry, '/workspaces/:id/labels', 'Labels'))
	documentTeams(apiDocs(registry, '/workspaces/:id/teams', 'Teams'))
	documentCannedResponses(apiDocs(registry, '/workspaces/:id/canned-responses', 'Canned responses'))
	documentChannels(apiDocs(registry, '/workspaces/:id/channels', 'Channels'))
	documentApiChannel(apiDocs(registry, '/workspaces/:id/channels/:channelId/messages', 'Channels'))
	documentConversations(apiDocs(registry, '/workspaces/:id/conversations', 'Conversations'))
	documentAttachments(apiDocs(registry, '/workspaces/:id/attachments', 'Conversations'))
	documentCampaigns(apiDocs(registry, '/workspaces/:id/campaigns', 'Campaigns'))
	documentReports(apiDocs(registry, '/workspaces/:id/reports', 'Reports'))
	documentAuditLog(apiDocs(registry, '/workspaces/:id/audit-log', 'Audit log'))
	documentAutomation(apiDocs(registry, '/workspaces/:id/automation-rules', 'Automation'))
	documentNotifications(apiDocs(registry, '/workspaces/:id/notifications', 'Notifications'))
	documentNotificationPreferences(apiDocs(registry, '/workspaces/:id/notification-preferences', 'Notifications'))
	documentUserNotifications(apiDocs(registry, '/notifications', 'Notifications'))
	documentPresence(apiDocs(registry, '/workspaces/:id/presence', 'Notifications'))
	documentAccessTokens(apiDocs(registry, '/workspaces/:id/access-tokens', 'Access tokens'))
	documentWorkspaces(apiDocs(registry, '/workspaces', 'Workspaces'))
	documentPush(apiDocs(registry, '/user/push-subscriptions', 'Notifications'))
	documentUser(apiDocs(registry, '/user', 'Workspaces'))
	documentRealtime(apiDocs(registry, '/realtime', 'Realtime'))
	documentLink(apiDocs(registry, '/link', 'Link pages'))
	documentUnsubscribe(apiDocs(registry, '/notifications/unsubscribe', 'Notifications'))
	documentOutgoingWebhooks(apiDocs(registry, '/workspaces/:id/webhooks', 'Webhooks'))

	return new OpenApiGeneratorV3(registry.definitions).generateDocument({
		openapi: '3.0.3',
		info: {
			title: 'CRM API',
			version,
			description:
				'JSON in, JSON out. Every error answers `{ message, statusCode, details }` (ErrorBody), its message in the language of `Accept-Language`. A workspace’s resources live under `/workspaces/{id}`: a non-member gets 404, as for a workspace that does not exist. An integration authenticates with an access token instead of a session: `Authorization: Bearer crm_bot_…` (a bot token, created by an owner or admin in Settings → Integrations; it acts as an admin of its workspace and authors what it does under its own name) or `crm_pat_…` (a personal token, from the profile page; it acts as its member, with their current role, and stops when they leave). A token reaches its own workspace only (any other is 404), needs the scope each operation names below (`area:read` for GET, `area:write` otherwise, write including read; 403 with `details.scope` without it), never reaches what a person alone may do (sign-in, the account, members, invitations, tokens, their notifications: 403), answers 401 once revoked or expired, and is limited to 600 requests a minute (429 with `Retry-After`). Each request of a token that writes is a line of the audit log.',
		},
		servers: [{ url: '/v1' }],
	})
}
