import { type ApiClient, type ChannelJson, type MessageTemplate } from './api.ts'

// A workspace's channels (api/channels/router.ts). What a channel's form posts is the API's to check.
const channelsOf = (workspaceId: string) => `/workspaces/${workspaceId}/channels`
const channelPath = (workspaceId: string, channelId: string) => `${channelsOf(workspaceId)}/${encodeURIComponent(channelId)}`

export const listChannels = (api: ApiClient, workspaceId: string) =>
	api.get<{ channels: ChannelJson[] }>(channelsOf(workspaceId)).then((answer) => answer.channels)

export const getChannel = (api: ApiClient, workspaceId: string, channelId: string) => api.get<ChannelJson>(channelPath(workspaceId, channelId))

export const createChannel = (api: ApiClient, workspaceId: string, channel: object) => api.post<ChannelJson>(channelsOf(workspaceId), channel)

export const updateChannel = (api: ApiClient, workspaceId: string, channelId: string, changes: object) =>
	api.patch<ChannelJson>(channelPath(workspaceId, channelId), changes)

/** New credentials for a messaging channel (a new bot token, a new access token). */
export const replaceChannelCredentials = (api: ApiClient, workspaceId: string, channelId: string, credentials: object) =>
	api.put<ChannelJson>(`${channelPath(workspaceId, channelId)}/credentials`, { credentials })

/** A new secret for an API channel's callback signatures, shown once; the one it replaced signs beside it for a day. */
export const rollCallbackSecret = (api: ApiClient, workspaceId: string, channelId: string) =>
	api.post<{ secret: string; previousSecretExpiresAt: string | null }>(`${channelPath(workspaceId, channelId)}/callback-secret`, {})

export const deleteChannel = (api: ApiClient, workspaceId: string, channelId: string) => api.delete(channelPath(workspaceId, channelId))

/** A WhatsApp number's approved message templates, asked of Meta. */
export const listTemplates = (api: ApiClient, workspaceId: string, channelId: string) =>
	api.get<{ templates: MessageTemplate[] }>(`${channelPath(workspaceId, channelId)}/templates`).then((answer) => answer.templates)
