import { type ApiClient, type ContactJson, type ContactSatisfactionJson, type ContactPageJson, type ImportResult, type Query } from './api.ts'

// A workspace's contacts (api/contacts/router.ts). What the forms post is the API's to check.
const contactsOf = (workspaceId: string) => `/workspaces/${workspaceId}/contacts`
const contactPath = (workspaceId: string, contactId: string) => `${contactsOf(workspaceId)}/${encodeURIComponent(contactId)}`

/** A page of contacts: `search`, `label`, `sort`, `direction`, `after`, `limit`, and `count: 'exact'` to count past the usual limit. */
export const listContacts = (api: ApiClient, workspaceId: string, query: Query) => api.get<ContactPageJson>(contactsOf(workspaceId), query)

export const getContact = (api: ApiClient, workspaceId: string, contactId: string) => api.get<ContactJson>(contactPath(workspaceId, contactId))

/** The contact's ratings, of the conversations the member sees. */
export const getContactSatisfaction = (api: ApiClient, workspaceId: string, contactId: string) =>
	api.get<ContactSatisfactionJson>(`${contactPath(workspaceId, contactId)}/satisfaction`)

export const createContact = (api: ApiClient, workspaceId: string, contact: object) => api.post<ContactJson>(contactsOf(workspaceId), contact)

export const updateContact = (api: ApiClient, workspaceId: string, contactId: string, changes: object) =>
	api.patch<ContactJson>(contactPath(workspaceId, contactId), changes)

export const deleteContact = (api: ApiClient, workspaceId: string, contactId: string) => api.delete(contactPath(workspaceId, contactId))

/** Records that the contact agreed to receive campaigns again. */
export const optInContact = (api: ApiClient, workspaceId: string, contactId: string) => api.post(`${contactPath(workspaceId, contactId)}/opt-in`)

/** Merges the contact into another (`into`), which keeps both's conversations; the answer is the one kept. */
export const mergeContact = (api: ApiClient, workspaceId: string, contactId: string, into: string) =>
	api.post<ContactJson>(`${contactPath(workspaceId, contactId)}/merge`, { into })

/** Labels, unlabels or deletes the contacts ticked: how many it changed. */
export const bulkContacts = (api: ApiClient, workspaceId: string, change: { action: string; contactIds: string[]; labelId?: string }) =>
	api.post<{ affected: number }>(`${contactsOf(workspaceId)}/bulk`, change)

/** A CSV file of contacts; numbers without a prefix are read as `country`'s. */
export const importContacts = (api: ApiClient, workspaceId: string, csv: string, country: string) =>
	api.postText<ImportResult>(`${contactsOf(workspaceId)}/import`, csv, 'text/csv; charset=utf-8', { country })

/** The contacts a list shows, as CSV, to stream on. */
export const exportContacts = (api: ApiClient, workspaceId: string, query: Query) => api.stream(`${contactsOf(workspaceId)}/export`, query, 'text/csv')
