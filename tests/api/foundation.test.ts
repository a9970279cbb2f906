import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isReachable } from '#api/db/database.ts'
import { healthRoutes } from '#server/health.ts'
import { startApi, testDb, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

describe('the /v1 error shape', () => {
	test('unknown routes answer 404 JSON with message, statusCode and details', async () => {
		const response = await api.request('GET', '/v1/does-not-exist?x=1')
		expect(response.status).toBe(404)
		expect(response.headers.get('content-type')).toMatch(/^application\/json/)
		expect(response.body).toEqual({ message: 'Not found: GET /v1/does-not-exist', statusCode: 404, details: null })
	})

	test('messages follow Accept-Language', async () => {
		const french = await api.request('POST', '/v1/nowhere', { body: {}, headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } })
		expect(french.body).toMatchObject({ message: 'Introuvable : POST /v1/nowhere', statusCode: 404 })
		const arabic = await api.request('GET', '/v1/nowhere', { headers: { 'Accept-Language': 'ar-eg' } })
		expect(arabic.body).toMatchObject({ message: 'غير موجود: GET /v1/nowhere' })
		expect(arabic.headers.get('content-language')).toBe('ar-eg')
	})

	test('a body that is not JSON is refused with 400 or 415, never 500', async () => {
		const broken = await api.request('POST', '/v1/anything', { rawBody: '{"a":', headers: { 'Content-Type': 'application/json' } })
		expect(broken.status).toBe(400)
		expect(broken.body).toEqual({ message: 'The request body is not valid JSON.', statusCode: 400, details: null })
		const form = await api.request('POST', '/v1/anything', { rawBody: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
		expect(form.status).toBe(415)
	})

	test('bodies over the limit are refused with 413', async () => {
		const response = await api.request('POST', '/v1/anything', { body: { text: 'x'.repeat(1_100_000) } })
		expect(response.status).toBe(413)
		expect(response.body).toMatchObject({ statusCode: 413, message: 'The request body is too large.' })
	})
})

describe('the database', () => {
	test('is migrated, with the extensions search relies on', async () => {
		const { rows } = await sql<{ extname: string }>`select extname from pg_extension order by extname`.execute(testDb())
		expect(rows.map((row) => row.extname)).toEqual(expect.arrayContaining(['citext', 'pg_trgm', 'unaccent']))
		expect(await isReachable(testDb())).toBe(true)
	})

	test('allows exactly one owner per workspace', async () => {
		const db = testDb()
		const workspace = await db
			.insertInto('workspaces')
			.values({ name: 'Acme', slug: `acme-${Date.now()}` })
			.returning('id')
			.executeTakeFirstOrThrow()
		const users = await db
			.insertInto('users')
			.values([1, 2].map((n) => ({ email: `owner${n}-${Date.now()}@example.com`, name: `Owner ${n}`, passwordHash: 'x' })))
			.returning('id')
			.execute()
		await db.insertInto('members').values({ workspaceId: workspace.id, userId: users[0]!.id, role: 'owner' }).execute()
		await expect(db.insertInto('members').values({ workspaceId: workspace.id, userId: users[1]!.id, role: 'owner' }).execute()).rejects.toThrow(
			/members_one_owner/,
		)
	})
})

describe('health checks', () => {
	async function serve(isReady: () => Promise<boolean>) {
		const app = express().use(healthRoutes({ isReady, isStopping: () => false }))
		const server = http.createServer(app)
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
		return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
	}

	test('/healthz answers while the process is up; /readyz follows the database', async () => {
		const up = await serve(() => isReachable(testDb()))
		expect((await fetch(`${up.url}/healthz`)).status).toBe(200)
		const ready = await fetch(`${up.url}/readyz`)
		expect(ready.status).toBe(200)
		expect(await ready.json()).toEqual({ status: 'ready', database: 'up' })
		await up.close()

		const { createDb } = await import('#api/db/database.ts')
		const unreachable = createDb('postgres://nobody:nothing@127.0.0.1:1/none', 1)
		const down = await serve(() => isReachable(unreachable))
		expect((await fetch(`${down.url}/healthz`)).status).toBe(200)
		const notReady = await fetch(`${down.url}/readyz`)
		expect(notReady.status).toBe(503)
		expect(await notReady.json()).toEqual({ status: 'unavailable', database: 'down' })
		await down.close()
		await unreachable.destroy()
	})
})
