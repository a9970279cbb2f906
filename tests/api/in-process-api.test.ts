import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import { pinoHttp } from 'pino-http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApi } from '#api/index.ts'
import { readingOncePerPage } from '#api/http/page-reads.ts'
import { ApiError, createApiClient, errorDetail } from '#app/.server/api-client.ts'
import { parseConfig } from '#config/config.ts'
import { inProcessApi } from '#server/in-process-api.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'

// The same API twice, on the same database: over loopback HTTP, and called in-process as the pages call it.
let overHttp: TestApi
let dataDir = ''
let fetchInProcess: ReturnType<typeof inProcessApi>['fetch']
beforeAll(async () => {
	overHttp = await startApi()
	dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'crm-in-process-'))
	const logger = pino({ level: 'silent' })
	const api = createApi({ db: testDb(), config: parseConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://crm.test' }), logger })
	fetchInProcess = inProcessApi({ api, requestLog: pinoHttp({ logger }) }).fetch
})
afterAll(async () => {
	await overHttp.close()
	await fs.rm(dataDir, { recursive: true, force: true })
})

const inProcess = (token?: string, locale?: string) => createApiClient({ baseUrl: 'http://crm.test/v1', fetch: fetchInProcess, token, locale })
const http = (token?: string, locale?: string) => createApiClient({ baseUrl: `${overHttp.url}/v1`, token, locale })

async function refusal(call: Promise<unknown>): Promise<ApiError> {
	const error = await call.catch((caught: unknown) => caught)
	expect(error).toBeInstanceOf(ApiError)
	return error as ApiError
}

describe('the API client in-process', () => {
	test('answers as over HTTP: the profile, and refusals in the caller’s language with the same ApiError', async () => {
		const workspace = await createWorkspace('In-process Co')
		const { token } = await createUser({ workspaceId: workspace.id, role: 'owner' })
		expect(await inProcess(token).get('/auth/profile')).toEqual(await http(token).get('/auth/profile'))

		const [unknownHere, unknownThere] = await Promise.all([
			refusal(inProcess('nope', 'ar-eg').get('/auth/profile')),
			refusal(http('nope', 'ar-eg').get('/auth/profile')),
		])
		expect(unknownHere).toMatchObject({ statusCode: 401, message: unknownThere.message, details: unknownThere.details })
		expect(unknownHere.message).not.toBe((await refusal(inProcess('nope', 'en-us').get('/auth/profile'))).message)

		const [invalidHere, invalidThere] = await Promise.all([
			refusal(inProcess(token, 'fr-x').patch('/auth/profile', { theme: 'pink' })),
			refusal(http(token, 'fr-x').patch('/auth/profile', { theme: 'pink' })),
		])
		expect(invalidHere).toMatchObject({ statusCode: 400, details: invalidThere.details })
		expect(errorDetail(invalidHere)).toBe(errorDetail(invalidThere))
	})

	test('streams a CSV export', async () => {
		const workspace = await createWorkspace('Export Co')
		const { token } = await createUser({ workspaceId: workspace.id, role: 'owner' })
		await inProcess(token).post(`/workspaces/${workspace.id}/contacts`, { name: 'Nour Export', email: 'nour.export@example.test' })
		const response = await inProcess(token).stream(`/workspaces/${workspace.id}/contacts/export`, {}, 'text/csv')
		expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
		expect(await response.text()).toContain('nour.export@example.test')
	})
})

describe('one authentication per page request', () => {
	const signOutEverywhere = (userId: string) => testDb().deleteFrom('sessions').where('userId', '=', userId).execute()

	test('the reads of one page share the token’s session and membership; the next page reads them again', async () => {
		const workspace = await createWorkspace('Shared Co')
		const { user, token } = await createUser({ workspaceId: workspace.id, role: 'owner' })
		const labels = `/workspaces/${workspace.id}/labels`
		await readingOncePerPage(async () => {
			await Promise.all([inProcess(token).get('/auth/profile'), inProcess(token).get(labels)])
			// Changed meanwhile by another request: this page has already read them.
			await testDb().deleteFrom('members').where('userId', '=', user.id).execute()
			await signOutEverywhere(user.id)
			await expect(inProcess(token).get('/auth/profile')).resolves.toMatchObject({ id: user.id })
			await expect(inProcess(token).get(labels)).resolves.toMatchObject({ labels: [] })
		})
		await readingOncePerPage(async () => {
			expect(await refusal(inProcess(token).get('/auth/profile'))).toMatchObject({ statusCode: 401 })
		})
	})

	test('from the page’s first write on, every call authenticates again', async () => {
		const { user, token } = await createUser()
		await readingOncePerPage(async () => {
			await inProcess(token).get('/auth/profile')
			await inProcess(token).patch('/auth/profile', { theme: 'rose' })
			await signOutEverywhere(user.id)
			expect(await refusal(inProcess(token).get('/auth/profile'))).toMatchObject({ statusCode: 401 })
		})
	})

	test('never shares one token’s user with another token', async () => {
		const first = await createUser({ name: 'First' })
		const second = await createUser({ name: 'Second' })
		await readingOncePerPage(async () => {
			const [one, two] = await Promise.all([inProcess(first.token).get('/auth/profile'), inProcess(second.token).get('/auth/profile')])
			expect([one, two]).toMatchObject([{ id: first.user.id }, { id: second.user.id }])
		})
	})

	test('outside a page request, every call authenticates', async () => {
		const { user, token } = await createUser()
		await inProcess(token).get('/auth/profile')
		await signOutEverywhere(user.id)
		expect(await refusal(inProcess(token).get('/auth/profile'))).toMatchObject({ statusCode: 401 })
	})
})
