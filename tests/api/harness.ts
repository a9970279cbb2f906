import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import { pinoHttp } from 'pino-http'
import { inject } from 'vitest'
import { createApi, createWebhooks } from '#api/index.ts'
import { hashPassword } from '#api/auth/password.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { createSession } from '#api/auth/sessions.ts'
import { type Role } from '#api/db/schema.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { parseConfig, type Config } from '#config/config.ts'
import { readOutbox, type ReadMail } from '../support/mail.ts'

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

/** The providers' addresses as configured by default (tests of the job queue alone pass them to its runner). */
export const defaultProviderConfig = parseConfig({ DATA_DIR: path.join(os.tmpdir(), 'crm-api-defaults') })

export type TestApi = {
	url: string
	/** This server's DATA_DIR (a fresh temp dir): mails land in its `outbox`. */
	dataDir: string
	/** Its configuration: a job runner of the test takes it (the providers' URLs, the ENCRYPTION_KEY generated in dataDir). */
	config: Config
	/** The mails written so far, oldest first, decoded. */
	outbox: () => Promise<ReadMail[]>
	request: (
		method: string,
		path: string,
		init?: { body?: unknown; rawBody?: string; headers?: Record<string, string> },
	) => Promise<{ status: number; body: unknown; headers: Headers }>
	close: () => Promise<void>
}

const quiet = { info: () => {}, debug: () => {}, error: () => {} }

/** A job runner of the `send-mail` task alone, sending as `config` says (the mails of a TestApi land in its outbox). */
export function startMailRunner(config: Config): Promise<JobRunner> {
	return startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: { 'send-mail': jobHandlers['send-mail'] },
		log: quiet,
		config,
		pollInterval: 100,
	})
}

/**
 * The real /v1 router and the providers' /webhooks on a real HTTP server on loopback, against the
 * test database, with a runner of the mail jobs (requests queue their mails) unless `mail` is false.
 */
export async function startApi(env: Record<string, string> = {}, options: { mail?: boolean } = {}): Promise<TestApi> {
	const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'crm-api-'))
	const config = parseConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://crm.test', ...env })
	const logger = pino({ level: 'silent' })
	const app = express()
	// As in server/app.ts: X-Forwarded-For is believed from loopback only (the backend-for-frontend).
	app.set('trust proxy', 'loopback')
	app.use(pinoHttp({ logger }))
	app.use('/v1', createApi({ db: testDb(), config, logger }))
	app.use('/webhooks', createWebhooks({ db: testDb(), config, logger }))
	const server = http.createServer(app)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	const mail = options.mail === false ? undefined : await startMailRunner(config)
	return {
		url,
		dataDir,
		config,
		outbox: () => readOutbox(dataDir),
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
		async close() {
			await new Promise<void>((resolve) => server.close(() => resolve()))
			await mail?.stop()
			await fs.rm(dataDir, { recursive: true, force: true })
		},
	}
}

/** A unique address for a test user. */
export function uniqueEmail(prefix = 'user') {
	return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.test`
}

/**
 * A user created straight in the database with a live session, faster than signing up.
 * With `workspace`, they are a member of it with `role`, and it is their current workspace.
 */
export async function createUser(options: { email?: string; name?: string; password?: string; verified?: boolean; workspaceId?: string; role?: Role } = {}) {
	const db = testDb()
	const password = options.password ?? 'Sup3r-secret'
	const user = await db
		.insertInto('users')
		.values({
			email: options.email ?? uniqueEmail(),
			name: options.name ?? 'Test User',
			passwordHash: await hashPassword(password),
			emailVerifiedAt: options.verified === false ? null : new Date(),
			currentWorkspaceId: options.workspaceId ?? null,
		})
		.returningAll()
		.executeTakeFirstOrThrow()
	if (options.workspaceId) {
		await db
			.insertInto('members')
			.values({ workspaceId: options.workspaceId, userId: user.id, role: options.role ?? 'agent' })
			.execute()
	}
	const token = await createSession(db, user.id)
	return { user, password, token, auth: { Authorization: `Bearer ${token}` } }
}

/** A workspace created straight in the database. */
export async function createWorkspace(name = 'Test workspace') {
	return testDb()
		.insertInto('workspaces')
		.values({ name, slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${crypto.randomBytes(4).toString('hex')}` })
		.returningAll()
		.executeTakeFirstOrThrow()
}
