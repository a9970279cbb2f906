/**
 * The server side of `npm run bench:realtime`, forked by bench/realtime.ts: the embedded realtime
 * server mounted as server/app.ts mounts it (httpHandler, then /healthz, upgrades on /app/), on
 * loopback. It runs in its own process so that its RSS and event loop are not the clients'.
 *
 * IPC: sends `{ type: 'listening', port }`; answers `{ type: 'stats' }` with `{ type: 'stats', rss,
 * heapUsed, connections }`; `{ type: 'close' }` closes the server and exits.
 */
import { createServer } from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { createRealtimeServer } from '#realtime/index.ts'
import { healthRoutes } from '#server/health.ts'
import { BENCH_APP, type ServerMessage, type ServerRequest } from './realtime-protocol.ts'

// The bench's own two channels: by default the server refuses public ones such as `bench`.
const realtime = createRealtimeServer({ apps: [BENCH_APP], channelNames: [/^(private-)?bench$/] })
const app = express()
app.disable('x-powered-by')
app.use(realtime.httpHandler)
app.use(healthRoutes({ isReady: async () => true, isStopping: () => false }))
const server = createServer(app)
server.on('upgrade', (req, socket, head) => {
	if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
})

function send(message: ServerMessage): void {
	process.send?.(message)
}

function stats(): ServerMessage {
	// Collect first so RSS reflects live memory rather than garbage awaiting collection (needs --expose-gc).
	globalThis.gc?.()
	const memory = process.memoryUsage()
	return { type: 'stats', rss: memory.rss, heapUsed: memory.heapUsed, connections: realtime.connectionCount() }
}

async function close(): Promise<void> {
	await realtime.close()
	server.closeAllConnections()
	await new Promise<void>((resolve) => server.close(() => resolve()))
	process.exit(0)
}

process.on('message', (message: ServerRequest) => {
	if (message.type === 'stats') send(stats())
	else if (message.type === 'close') void close()
})
// The driver went away (Ctrl-C, crash): do not linger.
process.on('disconnect', () => process.exit(0))

server.listen(0, '127.0.0.1', () => {
	send({ type: 'listening', port: (server.address() as AddressInfo).port })
})
