import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { createRealtimeServer, type RealtimeServerOptions } from './index.ts'

const healthPaths = new Set(['/', '/healthz', '/readyz'])

export type StandaloneRealtime = {
	/** The port it listens on (the one asked for, or the one the kernel chose for 0). */
	port: number
	/** Sockets get 4200 (reconnect), then the HTTP server stops. */
	close: () => Promise<void>
}

/**
 * The Pusher-protocol server alone on its own HTTP server: the HTTP events API (`/apps/{id}/…`),
 * WebSockets on `/app/{key}`, and `GET /`, `/healthz` and `/readyz` for health checks (200 while it
 * accepts connections, 503 once it is stopping); anything else is a 404.
 */
export async function startStandaloneRealtime(options: RealtimeServerOptions & { host: string; port: number }): Promise<StandaloneRealtime> {
	const realtime = createRealtimeServer(options)
	let stopping = false
	const server = http.createServer((req, res) => {
		realtime.httpHandler(req, res, () => {
			const path = (req.url ?? '').split('?', 1)[0] ?? ''
			const health = req.method === 'GET' && healthPaths.has(path)
			res.writeHead(health ? (stopping ? 503 : 200) : 404, { 'Content-Type': 'application/json' })
			res.end(JSON.stringify(health ? { status: stopping ? 'stopping' : 'ok', connections: realtime.connectionCount() } : { error: 'Not found' }))
		})
	})
	server.on('upgrade', (req, socket, head) => {
		if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(options.port, options.host, resolve)
	})
	return {
		port: (server.address() as AddressInfo).port,
		async close() {
			stopping = true
			const closed = new Promise<void>((resolve) => server.close(() => resolve()))
			server.closeIdleConnections()
			await realtime.close()
			await closed
		},
	}
}
