import { expect } from 'vitest'
import { type ContactJson } from '#api/contacts/queries.ts'
import { type LabelJson } from '#api/labels/queries.ts'
import { testDb, type TestApi } from './harness.ts'

export type { ContactJson, LabelJson }

export const contactsPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/contacts${rest}`
export const labelsPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/labels${rest}`

type Auth = Record<string, string>

export async function createContact(api: TestApi, auth: Auth, workspaceId: string, body: Record<string, unknown>): Promise<ContactJson> {
	const response = await api.request('POST', contactsPath(workspaceId), { body, headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as ContactJson
}

export async function createLabel(
	api: TestApi,
	auth: Auth,
	workspaceId: string,
	body: { title: string; color?: string; description?: string },
): Promise<LabelJson> {
	const response = await api.request('POST', labelsPath(workspaceId), { body: { color: '#4f46e5', ...body }, headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as LabelJson
}

/** Posts a CSV file (as text, or bytes to send exactly) to the import. */
export async function importCsv(api: TestApi, auth: Auth, workspaceId: string, file: string | Buffer, query = '', headers: Record<string, string> = {}) {
	const response = await fetch(`${api.url}${contactsPath(workspaceId, `/import${query}`)}`, {
		method: 'POST',
		headers: { 'Content-Type': 'text/csv', ...auth, ...headers },
		body: typeof file === 'string' ? file : new Uint8Array(file),
	})
	const text = await response.text()
	return { status: response.status, body: JSON.parse(text) as unknown }
}

/** Contacts inserted straight into the database (fast fixtures for lists); `createdAt` may repeat to make ties. */
export async function insertContacts(
	workspaceId: string,
	contacts: Array<{ name: string; email?: string; phone?: string; company?: string; createdAt?: Date | string }>,
) {
	if (contacts.length === 0) return []
	return testDb()
		.insertInto('contacts')
		.values(contacts.map((contact) => ({ workspaceId, avatarColor: '#6366f1', ...contact })))
		.returning(['id', 'name'])
		.execute()
}

/** The ids and names of a workspace's contacts, straight from the database. */
export async function contactsIn(workspaceId: string) {
	return testDb()
		.selectFrom('contacts')
		.select(['id', 'name', 'email', 'phone', 'company', 'notes'])
		.where('workspaceId', '=', workspaceId)
		.orderBy('name')
		.orderBy('id')
		.execute()
}
