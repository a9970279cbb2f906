import { type ApiClient, type AudienceJson, type CampaignJson, type MessagePreviewJson, type Query, type RecipientPageJson } from './api.ts'

// A workspace's campaigns (api/campaigns/router.ts).
const campaignsOf = (workspaceId: string) => `/workspaces/${workspaceId}/campaigns`
const campaignPath = (workspaceId: string, campaignId: string) => `${campaignsOf(workspaceId)}/${encodeURIComponent(campaignId)}`

/** Who a campaign is for: a channel's contacts with any of some labels, without any of others. */
export type AudienceOf = { channelId: string; labelsIn: string[]; labelsOut: string[] }

/** The steps of a campaign's life that are a post of their own. */
export type CampaignStep = 'start' | 'pause' | 'resume' | 'cancel'

export const listCampaigns = (api: ApiClient, workspaceId: string) =>
	api.get<{ campaigns: CampaignJson[] }>(campaignsOf(workspaceId)).then((answer) => answer.campaigns)

export const createCampaign = (api: ApiClient, workspaceId: string, campaign: object) => api.post<CampaignJson>(campaignsOf(workspaceId), campaign)

export const updateCampaign = (api: ApiClient, workspaceId: string, campaignId: string, changes: object) =>
	api.patch<CampaignJson>(campaignPath(workspaceId, campaignId), changes)

export const deleteCampaign = (api: ApiClient, workspaceId: string, campaignId: string) => api.delete(campaignPath(workspaceId, campaignId))

/** Starts, pauses, resumes or cancels a campaign; started with a date ahead, it is scheduled. */
export const moveCampaign = (api: ApiClient, workspaceId: string, campaignId: string, step: CampaignStep) =>
	api.post<CampaignJson>(`${campaignPath(workspaceId, campaignId)}/${step}`)

/** How many contacts an audience reaches and the first of them: nothing is sent. */
export const previewAudience = (api: ApiClient, workspaceId: string, audience: AudienceOf) =>
	api.post<AudienceJson>(`${campaignsOf(workspaceId)}/audience`, audience)

export const listRecipients = (api: ApiClient, workspaceId: string, campaignId: string, query: { status?: string; page: number; limit: number }) =>
	api.get<RecipientPageJson>(`${campaignPath(workspaceId, campaignId)}/recipients`, query)

/** The recipients as CSV, to stream on. */
export const exportRecipients = (api: ApiClient, workspaceId: string, campaignId: string, query: Query) =>
	api.stream(`${campaignPath(workspaceId, campaignId)}/recipients`, { ...query, format: 'csv' }, 'text/csv')

/** The message as one contact of the audience (`contactId`, else the first) would read it. */
export const previewMessage = (api: ApiClient, workspaceId: string, campaignId: string, contactId?: string) =>
	api.get<MessagePreviewJson>(`${campaignPath(workspaceId, campaignId)}/message-preview`, { contactId })
