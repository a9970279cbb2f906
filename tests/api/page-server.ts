import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createCookie } from '@remix-run/node'
import { pino } from 'pino'
import { inject } from 'vitest'
import { createAppServer } from '#server/app.ts'
import { parseConfig, type Config } from '#config/config.ts'
import { testDb } from './harness.ts'

export type PageServer = { url: string; config: Config; close: () => Promise<void> }

/**
 * The whole app as `npm start` serves it (server/app.ts: the pages of the production build, the API
 * in-process, the embedded realtime server) on loopback, in this process, against the test
 * database. Needs `npm run build` (npm test builds before the API tests).
 */
export async function startPageServer(env: Record<string, string> = {}): Promise<PageServer> {
	const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'crm-pages-'))
	// The build's cookies read it when it is loaded (server.ts sets it the same way).
	process.env.SESSION_SECRET ??= crypto.randomBytes(32).toString('hex')
	const databaseUrl = inject('databaseUrl')
	const config = parseConfig({
		DATA_DIR: dataDir,
		DATABASE_URL: databaseUrl,
		PUBLIC_URL: 'http://crm.test',
		NODE_ENV: 'production',
		HOST: '127.0.0.1',
		PORT: '0',
		LOG_LEVEL: 'silent',
		...env,
	})
	// The run's database stays open for the other tests: this server does not close it.
	const app = await createAppServer({ config, logger: pino({ level: 'silent' }), database: { db: testDb(), url: databaseUrl, close: async () => {} } })
	const url = await app.listen()
	return {
		url,
		config,
		async close() {
			await app.close()
			await fs.rm(dataDir, { recursive: true, force: true })
		},
	}
}

/** The `Cookie` header of a browser signed in with `token` (the web app's `crm-token`). */
export async function sessionCookie(token: string): Promise<string> {
	return (await createCookie('crm-token').serialize(token)).split(';')[0]!
}

export type RawAnswer = { status: number; headers: Record<string, string>; body: string; ms: number }

/**
 * A request written by hand on one connection: the head, then `body`'s chunks (each as its own
 * chunk of a chunked body when no Content-Length is given), without ending it unless `end`. Resolves
 * with the first answer as soon as it is whole, whatever is still unsent: a refusal must not wait
 * for a body it will never read.
 */
export function rawRequest(url: string, head: string, chunks: Buffer[], options: { end?: boolean } = {}): Promise<RawAnswer> {
	const { port } = new URL(url)
	const chunked = /transfer-encoding: chunked/i.test(head)
	const started = performance.now()
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(port), '127.0.0.1')
		// No answer while the body is held back: the server is waiting for it.
		const timer = setTimeout(() => {
			socket.destroy()
			reject(new Error('no answer within 5 s'))
		}, 5_000)
		let received = Buffer.alloc(0)
		socket.on('data', (data: Buffer) => {
			received = Buffer.concat([received, data])
			const split = received.indexOf('\r\n\r\n')
			if (split < 0) return
			const lines = received.subarray(0, split).toString('latin1').split('\r\n')
			const headers = Object.fromEntries(
				lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
			)
			const length = Number(headers['content-length'] ?? 0)
			if (received.length < split + 4 + length) return
			clearTimeout(timer)
			resolve({
				status: Number(lines[0]!.split(' ')[1]),
				headers,
				body: received.subarray(split + 4, split + 4 + length).toString('utf8'),
				ms: performance.now() - started,
			})
			socket.destroy()
		})
		socket.on('error', reject)
		socket.write(`${head.trim()}\r\nHost: crm.test\r\n\r\n`)
		for (const chunk of chunks) socket.write(chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk)
		if (options.end && chunked) socket.write('0\r\n\r\n')
	})
}
