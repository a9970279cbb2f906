import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import WebSocket from 'ws'
import { killChildServers, ownDatabase, startChildServer, until, type ChildServer } from './child-server.ts'
import { signalLoad } from './signal-load.ts'

/**
 * Graceful shutdown under load (issue 18): the real server (a child process) answers a light load on
 * keep-alive connections, with a realtime WebSocket open, and gets SIGTERM. Every request sent before
 * the signal gets its answer (no ECONNRESET, no "socket hang up"), the WebSocket is told to reconnect
 * (a Pusher close code of the 4200 family), and the process exits 0.
 *
 * The database is one of its own on the run's PostgreSQL (the other files' leftover jobs would
 * otherwise run in the child).
 */

let database: { url: string; drop: () => Promise<void> }
let dataDir: string
let server: ChildServer

beforeAll(async () => {
	database = await ownDatabase('shutdown')
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-faults-shutdown-'))
	server = await startChildServer({ DATA_DIR: dataDir, DATABASE_URL: database.url })
})

afterAll(async () => {
	killChildServers()
	await database.drop()
	fs.rmSync(dataDir, { recursive: true, force: true })
})

test('SIGTERM under load: in-flight requests finish, no reset, WebSockets told to reconnect, exit 0', { timeout: 90_000 }, async () => {
	// Keep-alive connections, as a proxy or a browser keeps them.
	const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
	const send = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
		new Promise<{ status: number; body: string }>((resolve, reject) => {
			const payload = body === undefined ? undefined : JSON.stringify(body)
			const request = http.request(
				server.url + route,
				{ method, agent, headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...headers } },
				(response) => {
					const chunks: Buffer[] = []
					response.on('data', (chunk: Buffer) => chunks.push(chunk))
					response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
					response.on('error', reject)
				},
			)
			request.on('error', reject)
			request.end(payload)
		})
	const registered = await send('POST', '/v1/auth/register', {
		name: 'Owner',
		email: `owner-${crypto.randomBytes(4).toString('hex')}@example.test`,
		password: 'Shutdown-password-1',
	})
	const auth = { Authorization: `Bearer ${(JSON.parse(registered.body) as { access_token: string }).access_token}` }
	const workspace = JSON.parse((await send('POST', '/v1/workspaces', { name: 'Shutdown' }, auth)).body) as { id: string }
	const contactsPath = `/v1/workspaces/${workspace.id}/contacts`

	// A realtime client, connected.
	const { key } = JSON.parse(fs.readFileSync(path.join(dataDir, 'realtime-app.json'), 'utf8')) as { key: string }
	const socket = new WebSocket(`${server.url.replace('http', 'ws')}/app/${key}?protocol=7&client=js&version=8.4.0`)
	const established = new Promise<void>((resolve) =>
		socket.on('message', (data: Buffer) => JSON.parse(data.toString()).event === 'pusher:connection_established' && resolve()),
	)
	const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
	await established

	// Eight loops of writes and reads on the keep-alive connections, until the server is gone.
	const load = signalLoad(8, async (index, turn) =>
		index % 2 === 0
			? (await send('POST', contactsPath, { name: `Shutdown ${index}-${turn}` }, auth)).status
			: (await send('GET', `${contactsPath}?limit=50`, undefined, auth)).status,
	)
	const { sent } = load
	await until('requests answered before the signal', () => sent.filter((each) => each.outcome === 201 || each.outcome === 200).length >= 40, 30_000)
	// The signal comes while requests are in flight.
	await until('requests in flight', () => load.outstanding() >= 4, 10_000)
	load.signal()
	server.child.kill('SIGTERM')

	const exit = await server.exited
	await load.stop()
	agent.destroy()

	const before = sent.filter((each) => each.beforeSignal)
	const inFlight = before.filter((each) => each.answeredAfterSignal)
	expect(inFlight.length).toBeGreaterThan(0)
	// Every request sent before the signal got its answer: a status, never a reset nor a hang-up.
	const failed = before.filter((each) => typeof each.outcome !== 'number' || each.outcome >= 300)
	expect(failed, JSON.stringify(failed)).toEqual([])
	// After it: answered (with Connection: close), or refused once the server stopped listening.
	const after = sent.filter((each) => !each.beforeSignal)
	expect(
		after.filter((each) => typeof each.outcome !== 'number' && each.outcome !== 'ECONNREFUSED'),
		JSON.stringify(after),
	).toEqual([])

	const code = await closed
	expect(code).toBeGreaterThanOrEqual(4200)
	expect(code).toBeLessThan(4300)
	expect(exit, server.output.slice(-30).join('\n')).toEqual({ code: 0, signal: null })
})
