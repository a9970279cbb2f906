import { type TokenArea } from '#common/access-tokens.ts'

/**
 * What an access token may call, for every `/v1` route (`METHOD path` as `listRoutes` writes it): the
 * area whose scope it needs (read for GET and HEAD, write otherwise), `never` for what only a person in
 * a session may do (their account, sign-in, members, invitations, tokens, their own notifications), and
 * `public` for what needs no session at all. tests/api/access-tokens.test.ts fails when a route has no row.
 */
export type TokenRule = TokenArea | 'never' | 'public'

export const tokenRules: Record<string, TokenRule> = {
	'POST /v1/auth/change-password': 'never',
	'POST /v1/auth/forgot-password': 'never',
	'POST /v1/auth/login': 'never',
	'POST /v1/auth/login/two-factor': 'never',
	'POST /v1/auth/logout': 'never',
	'GET /v1/auth/profile': 'never',
	'PATCH /v1/auth/profile': 'never',
	'POST /v1/auth/register': 'never',
	'POST /v1/auth/resend-verification': 'never',
	'POST /v1/auth/reset-password': 'never',
	'GET /v1/auth/sessions': 'never',
	'DELETE /v1/auth/sessions/:sessionId': 'never',
	'POST /v1/auth/sessions/revoke-others': 'never',
	'GET /v1/auth/two-factor': 'never',
	'POST /v1/auth/two-factor/disable': 'never',
	'POST /v1/auth/two-factor/enable': 'never',
	'POST /v1/auth/two-factor/recovery-codes': 'never',
	'POST /v1/auth/two-factor/setup': 'never',
	'POST /v1/auth/validate-reset-token': 'never',
	'POST /v1/auth/verify-email': 'never',
	'GET /v1/docs': 'public',
	'GET /v1/link/:slug': 'public',
	'GET /v1/link/:slug/attachments/:attachmentId': 'public',
	'GET /v1/link/:slug/messages': 'public',
	'POST /v1/link/:slug/messages': 'public',
	'POST /v1/link/:slug/read': 'public',
	'POST /v1/link/:slug/realtime/auth': 'public',
	'POST /v1/link/:slug/satisfaction': 'public',
	'GET /v1/notifications/:notificationId': 'never',
	'GET /v1/notifications/unsubscribe': 'public',
	'POST /v1/notifications/unsubscribe': 'public',
	'GET /v1/openapi.json': 'public',
	'POST /v1/realtime/auth': 'never',
	'POST /v1/realtime/user-auth': 'never',
	'GET /v1/user/push-subscriptions': 'never',
	'POST /v1/user/push-subscriptions': 'never',
	'DELETE /v1/user/push-subscriptions/:deviceId': 'never',
	'POST /v1/user/push-subscriptions/:deviceId/test': 'never',
	'GET /v1/user/workspaces': 'never',
	'POST /v1/workspaces': 'never',
	'DELETE /v1/workspaces/:id': 'never',
	'GET /v1/workspaces/:id': 'settings',
	'PATCH /v1/workspaces/:id': 'settings',
	'GET /v1/workspaces/:id/access-tokens': 'never',
	'POST /v1/workspaces/:id/access-tokens': 'never',
	'PATCH /v1/workspaces/:id/access-tokens/:tokenId': 'never',
	'DELETE /v1/workspaces/:id/access-tokens/:tokenId': 'never',
	'GET /v1/workspaces/:id/attachments/:attachmentId': 'conversations',
	'GET /v1/workspaces/:id/audit-log': 'settings',
	'GET /v1/workspaces/:id/audit-log/export': 'settings',
	'GET /v1/workspaces/:id/automation-rules': 'settings',
	'POST /v1/workspaces/:id/automation-rules': 'settings',
	'DELETE /v1/workspaces/:id/automation-rules/:ruleId': 'settings',
	'GET /v1/workspaces/:id/automation-rules/:ruleId': 'settings',
	'PATCH /v1/workspaces/:id/automation-rules/:ruleId': 'settings',
	'POST /v1/workspaces/:id/automation-rules/:ruleId/move': 'settings',
	'GET /v1/workspaces/:id/automation-rules/:ruleId/runs': 'settings',
	'GET /v1/workspaces/:id/campaigns': 'campaigns',
	'POST /v1/workspaces/:id/campaigns': 'campaigns',
	'DELETE /v1/workspaces/:id/campaigns/:campaignId': 'campaigns',
	'GET /v1/workspaces/:id/campaigns/:campaignId': 'campaigns',
	'PATCH /v1/workspaces/:id/campaigns/:campaignId': 'campaigns',
	'POST /v1/workspaces/:id/campaigns/:campaignId/cancel': 'campaigns',
	'GET /v1/workspaces/:id/campaigns/:campaignId/message-preview': 'campaigns',
	'POST /v1/workspaces/:id/campaigns/:campaignId/pause': 'campaigns',
	'GET /v1/workspaces/:id/campaigns/:campaignId/recipients': 'campaigns',
	'POST /v1/workspaces/:id/campaigns/:campaignId/resume': 'campaigns',
	'POST /v1/workspaces/:id/campaigns/:campaignId/start': 'campaigns',
	'POST /v1/workspaces/:id/campaigns/audience': 'campaigns',
	'GET /v1/workspaces/:id/canned-responses': 'settings',
	'POST /v1/workspaces/:id/canned-responses': 'settings',
	'DELETE /v1/workspaces/:id/canned-responses/:cannedId': 'settings',
	'GET /v1/workspaces/:id/canned-responses/:cannedId': 'settings',
	'PATCH /v1/workspaces/:id/canned-responses/:cannedId': 'settings',
	'GET /v1/workspaces/:id/channels': 'settings',
	'POST /v1/workspaces/:id/channels': 'settings',
	'DELETE /v1/workspaces/:id/channels/:channelId': 'settings',
	'GET /v1/workspaces/:id/channels/:channelId': 'settings',
	'PATCH /v1/workspaces/:id/channels/:channelId': 'settings',
	'PUT /v1/workspaces/:id/channels/:channelId/credentials': 'settings',
	'POST /v1/workspaces/:id/channels/:channelId/callback-secret': 'settings',
	'GET /v1/workspaces/:id/channels/:channelId/templates': 'settings',
	// An API channel's integration hands over its customers' messages and reports deliveries: conversations, not settings.
	'POST /v1/workspaces/:id/channels/:channelId/messages': 'conversations',
	'POST /v1/workspaces/:id/channels/:channelId/messages/:messageId/status': 'conversations',
	'GET /v1/workspaces/:id/contacts': 'contacts',
	'POST /v1/workspaces/:id/contacts': 'contacts',
	'DELETE /v1/workspaces/:id/contacts/:contactId': 'contacts',
	'GET /v1/workspaces/:id/contacts/:contactId': 'contacts',
	'PATCH /v1/workspaces/:id/contacts/:contactId': 'contacts',
	'POST /v1/workspaces/:id/contacts/:contactId/merge': 'contacts',
	'POST /v1/workspaces/:id/contacts/:contactId/opt-in': 'contacts',
	'GET /v1/workspaces/:id/contacts/:contactId/satisfaction': 'contacts',
	'POST /v1/workspaces/:id/contacts/bulk': 'contacts',
	'GET /v1/workspaces/:id/contacts/export': 'contacts',
	'POST /v1/workspaces/:id/contacts/import': 'contacts',
	'GET /v1/workspaces/:id/conversations': 'conversations',
	'GET /v1/workspaces/:id/conversations/:number': 'conversations',
	'PATCH /v1/workspaces/:id/conversations/:number': 'conversations',
	'PUT /v1/workspaces/:id/conversations/:number/labels': 'conversations',
	'GET /v1/workspaces/:id/conversations/:number/messages': 'conversations',
	'POST /v1/workspaces/:id/conversations/:number/messages': 'conversations',
	'POST /v1/workspaces/:id/conversations/:number/messages/:messageId/retry': 'conversations',
	'POST /v1/workspaces/:id/conversations/:number/read': 'never',
	'GET /v1/workspaces/:id/conversations/:number/view': 'conversations',
	'POST /v1/workspaces/:id/conversations/bulk': 'conversations',
	'GET /v1/workspaces/:id/conversations/summary': 'conversations',
	'GET /v1/workspaces/:id/events/last': 'conversations',
	'GET /v1/workspaces/:id/invitations': 'never',
	'POST /v1/workspaces/:id/invitations': 'never',
	'DELETE /v1/workspaces/:id/invitations/:invitationId': 'never',
	'POST /v1/workspaces/:id/invitations/:invitationId/resend': 'never',
	'GET /v1/workspaces/:id/labels': 'settings',
	'POST /v1/workspaces/:id/labels': 'settings',
	'DELETE /v1/workspaces/:id/labels/:labelId': 'settings',
	'GET /v1/workspaces/:id/labels/:labelId': 'settings',
	'PATCH /v1/workspaces/:id/labels/:labelId': 'settings',
	'POST /v1/workspaces/:id/leave': 'never',
	'GET /v1/workspaces/:id/members': 'settings',
	'DELETE /v1/workspaces/:id/members/:userId': 'never',
	'PATCH /v1/workspaces/:id/members/:userId': 'never',
	'POST /v1/workspaces/:id/members/:userId/two-factor/reset': 'never',
	'GET /v1/workspaces/:id/members/me': 'never',
	'PATCH /v1/workspaces/:id/members/me': 'never',
	'GET /v1/workspaces/:id/notification-preferences': 'never',
	'PUT /v1/workspaces/:id/notification-preferences': 'never',
	'GET /v1/workspaces/:id/notifications': 'never',
	'POST /v1/workspaces/:id/notifications/read': 'never',
	'POST /v1/workspaces/:id/notifications/read-all': 'never',
	'GET /v1/workspaces/:id/overview': 'conversations',
	'POST /v1/workspaces/:id/presence/focus': 'never',
	'GET /v1/workspaces/:id/reports': 'conversations',
	'GET /v1/workspaces/:id/reports/export': 'conversations',
	'GET /v1/workspaces/:id/reports/satisfaction': 'conversations',
	'GET /v1/workspaces/:id/teams': 'settings',
	'POST /v1/workspaces/:id/teams': 'settings',
	'DELETE /v1/workspaces/:id/teams/:teamId': 'settings',
	'GET /v1/workspaces/:id/teams/:teamId': 'settings',
	'PATCH /v1/workspaces/:id/teams/:teamId': 'settings',
	'PUT /v1/workspaces/:id/teams/:teamId/members': 'settings',
	'POST /v1/workspaces/:id/transfer-ownership': 'never',
	'GET /v1/workspaces/:id/webhooks': 'settings',
	'POST /v1/workspaces/:id/webhooks': 'settings',
	'DELETE /v1/workspaces/:id/webhooks/:subscriptionId': 'settings',
	'GET /v1/workspaces/:id/webhooks/:subscriptionId': 'settings',
	'PATCH /v1/workspaces/:id/webhooks/:subscriptionId': 'settings',
	'GET /v1/workspaces/:id/webhooks/:subscriptionId/deliveries': 'settings',
	'POST /v1/workspaces/:id/webhooks/:subscriptionId/deliveries/:deliveryId/retry': 'settings',
	'POST /v1/workspaces/:id/webhooks/:subscriptionId/secret': 'settings',
	'POST /v1/workspaces/:id/webhooks/:subscriptionId/test': 'settings',
	'POST /v1/workspaces/invitations/accept': 'never',
	'POST /v1/workspaces/invitations/preview': 'never',
	'PUT /v1/workspaces/switch': 'never',
}

/** Whether a request of `method` writes: anything but GET and HEAD needs the area's write scope. */
export const isWriteMethod = (method: string): boolean => method !== 'GET' && method !== 'HEAD'

type Matcher = { method: string; pattern: RegExp; params: string[]; rule: TokenRule; literals: number }

const matchers: Matcher[] = Object.entries(tokenRules)
	.map(([key, rule]) => {
		const [method = '', path = ''] = key.split(' ')
		const params = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!)
		const source = path
			.split('/')
			.map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
			.join('/')
		return { method, pattern: new RegExp(`^${source}/?$`), params, rule, literals: path.split('/').length - params.length }
	})
	// A literal segment wins over a parameter (`/contacts/export` before `/contacts/:contactId`), as the routers order them.
	.sort((a, b) => b.literals - a.literals)

/** The rule of the route a request reaches (`path` under /v1, without its query), with its workspace id; undefined: no such route. */
export function tokenRuleFor(method: string, path: string): { rule: TokenRule; workspaceId?: string } | undefined {
	const asked = method === 'HEAD' ? 'GET' : method
	for (const matcher of matchers) {
		if (matcher.method !== asked) continue
		const match = matcher.pattern.exec(path)
		if (!match) continue
		const index = matcher.params.indexOf('id')
		return { rule: matcher.rule, workspaceId: index >= 0 ? decodeURIComponent(match[index + 1] ?? '') : undefined }
	}
	return undefined
}
