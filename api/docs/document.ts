import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi'
import { type OpenAPIObject } from 'openapi3-ts/oas30'
import { apiDocs, errorBodySchema, securitySchemes } from '#api/http/openapi.ts'
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
	documentWorkspaces(apiDocs(registry, '/workspaces', 'Workspaces'))
	documentPush(apiDocs(registry, '/user/push-subscriptions', 'Notifications'))
	documentUser(apiDocs(registry, '/user', 'Workspaces'))
	documentRealtime(apiDocs(registry, '/realtime', 'Realtime'))
	documentLink(apiDocs(registry, '/link', 'Link pages'))
	documentUnsubscribe(apiDocs(registry, '/notifications/unsubscribe', 'Notifications'))

	return new OpenApiGeneratorV3(registry.definitions).generateDocument({
		openapi: '3.0.3',
		info: {
			title: 'CRM API',
			version,
			description:
				'JSON in, JSON out. Every error answers `{ message, statusCode, details }` (ErrorBody), its message in the language of `Accept-Language`. A workspace’s resources live under `/workspaces/{id}`: a non-member gets 404, as for a workspace that does not exist.',
		},
		servers: [{ url: '/v1' }],
	})
}
