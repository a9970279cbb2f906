import { type WebhookDeliveryJson, type WebhookEventType, type WebhookSubscriptionJson } from '#common/webhooks.ts'
import { type ApiClient } from './api.ts'

// A workspace's outgoing webhooks and their delivery logs (api/outgoing-webhooks/router.ts).
const webhooksOf = (workspaceId: string) => `/workspaces/${workspaceId}/webhooks`
const webhookPath = (workspaceId: string, subscriptionId: string) => `${webhooksOf(workspaceId)}/${encodeURIComponent(subscriptionId)}`

export type WebhookInput = { url: string; events: WebhookEventType[]; enabled?: boolean }
export type DeliveryPageJson = { deliveries: WebhookDeliveryJson[]; nextCursor: string | null }

export const listWebhooks = (api: ApiClient, workspaceId: string) =>
	api.get<{ webhooks: WebhookSubscriptionJson[] }>(webhooksOf(workspaceId)).then((answer) => answer.webhooks)

export const getWebhook = (api: ApiClient, workspaceId: string, subscriptionId: string) =>
	api.get<WebhookSubscriptionJson>(webhookPath(workspaceId, subscriptionId))

/** The new webhook and its secret, which the API shows this once. */
export const createWebhook = (api: ApiClient, workspaceId: string, input: WebhookInput) =>
	api.post<{ webhook: WebhookSubscriptionJson; secret: string }>(webhooksOf(workspaceId), input)

export const updateWebhook = (api: ApiClient, workspaceId: string, subscriptionId: string, changes: Partial<WebhookInput>) =>
	api.patch<WebhookSubscriptionJson>(webhookPath(workspaceId, subscriptionId), changes)

export const deleteWebhook = (api: ApiClient, workspaceId: string, subscriptionId: string) => api.delete(webhookPath(workspaceId, subscriptionId))

/** A page of the log, newest first; `cursor` is the last page's `nextCursor`. */
export const listDeliveries = (api: ApiClient, workspaceId: string, subscriptionId: string, cursor?: string | null) =>
	api.get<DeliveryPageJson>(`${webhookPath(workspaceId, subscriptionId)}/deliveries`, { cursor: cursor || undefined })

export const sendTestEvent = (api: ApiClient, workspaceId: string, subscriptionId: string) =>
	api.post<WebhookDeliveryJson>(`${webhookPath(workspaceId, subscriptionId)}/test`, {})

export const resendDelivery = (api: ApiClient, workspaceId: string, subscriptionId: string, deliveryId: string) =>
	api.post<WebhookDeliveryJson>(`${webhookPath(workspaceId, subscriptionId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, {})

/** A new signing secret, which the API shows this once, and until when the one it replaced still signs beside it. */
export const rollSecret = (api: ApiClient, workspaceId: string, subscriptionId: string) =>
	api.post<{ secret: string; previousSecretExpiresAt: string | null }>(`${webhookPath(workspaceId, subscriptionId)}/secret`, {})
