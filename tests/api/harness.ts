import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import { pinoHttp } from 'pino-http'
import { inject } from 'vitest'
import { createApi } from '#api/index.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { parseConfig } from '#server/config.ts'

let db: DB | undefined

/** The run's database (see global-setup.ts). */
export function testDb(): DB {
	db ??= createDb(inject('databaseUrl'), 5)
	return db
}

export async function closeTestDb() {
	await db?.destroy()
	db = undefined
}

export type TestApi = {
	url: string
	request: (method: string, path: string, init?: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) => Promise<{ status: number; body: unknown; headers: Headers }>
	close: () => Promise<void>
}

/** The real /v1 router on a real HTTP server on loopback, against the test database. */
export async function startApi(env: Record<string, string> = {}): Promise<TestApi> {
	const config = parseConfig({ DATA_DIR: '.data/test', ...env })
	const logger = pino({ level: 'silent' })
	const app = express()
	app.use(pinoHttp({ logger }))
	app.use('/v1', createApi({ db: testDb(), config, logger }))
	const server = http.createServer(app)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return {
		url,
		async request(method, path, init = {}) {
			const headers: Record<string, string> = { ...init.headers }
			let body: string | undefined = init.rawBody
			if (init.body !== undefined) {
				body = JSON.stringify(init.body)
				headers['Content-Type'] ??= 'application/json'
			}
			const response = await fetch(`${url}${path}`, { method, headers, body })
			const text = await response.text()
			let parsed: unknown = null
			try {
				parsed = text ? JSON.parse(text) : null
			} catch {
				parsed = text
			}
			return { status: response.status, body: parsed, headers: response.headers }
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}
