import { type ApiClient, type ConversationListJson, type ConversationViewJson, type InboxSummaryJson, type Query, type TeamJson } from './api.ts'

// A workspace's conversations (api/conversations/router.ts). What the inbox posts is the API's to check.
const conversationsOf = (workspaceId: string) => `/workspaces/${workspaceId}/conversations`
const conversationPath = (workspaceId: string, number: number) => `${conversationsOf(workspaceId)}/${number}`

/** A page of the list: `status`, `assignee`, `team`, `channelId`, `labelId`, `priority`, `search`, `sort`, `after`, `limit`. */
export const listConversations = (api: ApiClient, workspaceId: string, query: Query) => api.get<ConversationListJson>(conversationsOf(workspaceId), query)

/** Open conversations assigned to me, to nobody and to my teams: the sidebar's counts. */
export const inboxSummary = (api: ApiClient, workspaceId: string) => api.get<InboxSummaryJson>(`${conversationsOf(workspaceId)}/summary`)

/** A conversation, a page of its thread (`before`, `limit`) and the contact's latest `others` conversations; it is not marked read. */
export const conversationView = (api: ApiClient, workspaceId: string, number: number, query: { before?: string; limit: number; others: number }) =>
	api.get<ConversationViewJson>(`${conversationPath(workspaceId, number)}/view`, query)

export const markRead = (api: ApiClient, workspaceId: string, number: number) => api.post(`${conversationPath(workspaceId, number)}/read`)

/** Assignment, status, snooze, priority: a change of the conversation. */
export const updateConversation = (api: ApiClient, workspaceId: string, number: number, changes: object) =>
	api.patch(conversationPath(workspaceId, number), changes)

/** The same change to many conversations (at most a hundred): how many it changed. */
export const bulkConversations = (api: ApiClient, workspaceId: string, change: { numbers: number[] } & object) =>
	api.post<{ updated: number }>(`${conversationsOf(workspaceId)}/bulk`, change)

/** A reply or a note; with a file, a multipart form the API reads itself. */
export const sendMessage = (api: ApiClient, workspaceId: string, number: number, message: FormData | object) =>
	message instanceof FormData
		? api.postForm(`${conversationPath(workspaceId, number)}/messages`, message)
		: api.post(`${conversationPath(workspaceId, number)}/messages`, message)

/** Sends again a message the provider refused. */
export const retryMessage = (api: ApiClient, workspaceId: string, number: number, messageId: string) =>
	api.post(`${conversationPath(workspaceId, number)}/messages/${encodeURIComponent(messageId)}/retry`)

/** The conversation's labels, all at once. */
export const replaceConversationLabels = (api: ApiClient, workspaceId: string, number: number, labelIds: string[]) =>
	api.put(`${conversationPath(workspaceId, number)}/labels`, { labelIds })

/** The workspace's teams with their members (api/teams/router.ts): the inbox's team choices and "my teams". */
export const inboxTeams = (api: ApiClient, workspaceId: string) =>
	api.get<{ teams: TeamJson[] }>(`/workspaces/${workspaceId}/teams`).then((answer) => answer.teams)
