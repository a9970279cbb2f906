import { type AppLoadContext } from '@remix-run/node'
import { isLocale } from '#locales/languages.ts'
import { createApiClient } from './api-client.ts'

export { ApiError, errorDetail, type ApiClient, type Query } from './api-client.ts'

// The API's answers as the web app reads them: app/ reaches api/ through this module only.
export type { SessionJson } from '#api/auth/sessions.ts'
export type { UserJson, WorkspaceJson } from '#api/auth/profile.ts'
export type { AudienceJson, CampaignJson, MessagePreviewJson, RecipientPageJson } from '#api/campaigns/queries.ts'
export type { AuditEventJson } from '#api/audit/queries.ts'
export type { CannedResponseJson } from '#api/canned-responses/queries.ts'
export type { ChannelJson } from '#api/channels/queries.ts'
export type { LinkSettings } from '#api/channels/schemas.ts'
export type { MessageTemplate } from '#api/channels/providers/provider.ts'
export type { ContactJson, ContactPageJson } from '#api/contacts/queries.ts'
export type { ImportResult } from '#api/contacts/import.ts'
export type {
	ConversationEventJson,
	ConversationJson,
	ConversationListJson,
	InboxSummaryJson,
	MessageJson,
	MessagePageJson,
	ConversationViewJson,
} from '#api/conversations/json.ts'
export type { ConversationEventData, MessageEventData } from '#api/conversations/events.ts'
export type { Availability, Role } from '#api/db/schema.ts'
export type { LabelJson, LabelSummary } from '#api/labels/queries.ts'
export type { UnsubscribeJson } from '#api/notifications/unsubscribe.ts'
export type { TeamJson } from '#api/teams/queries.ts'
export type { AccessTokenJson } from '#api/access-tokens/queries.ts'
export type { CreatedTokenJson } from '#api/access-tokens/router.ts'
export type { FocusJson, PushDeviceJson, PushDevicesJson, PushTestJson } from '#api/notifications/push-router.ts'
export type { MemberJson } from '#api/workspaces/members.ts'
export type { InvitationJson } from '#api/workspaces/invitations.ts'
export type { OverviewJson } from '#api/workspaces/queries.ts'
export type { LinkPageJson, VisitorMessageJson, VisitorSurveyJson, VisitorThreadJson } from '#api/link/queries.ts'
export type { SatisfactionReportJson } from '#api/reports/satisfaction.ts'
export type { ContactSatisfactionJson } from '#api/satisfaction/contact.ts'
export type { ReportJson, ReportPreset, ReportRange, ReportTable } from '#api/reports/json.ts'
// The first-response targets the reports offer (seconds); the API refuses any other.
export { targets as reportTargets } from '#api/reports/buckets.ts'

/** The API as the current visitor: their token (crm-token cookie) and the locale of the URL. */
export function api(request: Request, context: AppLoadContext, params: { lang?: string } = {}, token?: string | null, headers?: Record<string, string>) {
	return createApiClient({
		baseUrl: context.apiBaseUrl,
		fetch: context.apiFetch,
		token,
		locale: isLocale(params.lang) ? params.lang : undefined,
		// The API rate-limits by this address; it believes it from loopback only.
		forwardedFor: context.clientIp || null,
		requestId: request.headers.get('X-Request-Id'),
		userAgent: request.headers.get('User-Agent'),
		headers,
	})
}
