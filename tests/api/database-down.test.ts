import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import { pinoHttp } from 'pino-http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApi } from '#api/index.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { defaultProviderConfig } from './harness.ts'

// The API in front of a PostgreSQL that does not answer (nothing listens on port 9 of loopback).
let db: DB
let server: http.Server
let url: string
beforeAll(async () => {
	db = createDb('postgres://postgres:secret@127.0.0.1:9/crm', 2)
	const logger = pino({ level: 'silent' })
	const app = express()
	app.use(pinoHttp({ logger }))
	app.use('/v1', createApi({ db, config: defaultProviderConfig, logger }))
	server = http.createServer(app)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()))
	await db.destroy()
})

describe('with the database away', () => {
	test('the API answers 503 with Retry-After and a translated message, never a 500 nor a stack', async () => {
		for (const [path, init] of [
			['/v1/auth/profile', { headers: { Authorization: 'Bearer some-token', 'Accept-Language': 'fr' } }],
			[
				'/v1/auth/login',
				{
					method: 'POST',
					headers: { 'Content-Type': 'application/json', 'Accept-Language': 'ar' },
					body: JSON.stringify({ email: 'a@example.com', password: 'Sup3r-secret-1' }),
				},
			],
		] as const) {
			const response = await fetch(url + path, init)
			const body = (await response.json()) as { message: string; statusCode: number }
			expect(response.status, path).toBe(503)
			expect(response.headers.get('retry-after'), path).toBe('5')
			expect(body.statusCode).toBe(503)
			expect(body.message, path).toMatch(path.endsWith('login') ? /[\u0600-\u06FF]/ : /base de données/)
			expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|\bat \w|node_modules/)
		}
	})
})
