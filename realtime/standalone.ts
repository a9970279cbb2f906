import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { createRealtimeServer, type RealtimeServerOptions } from './index.ts'

export type StandaloneRealtime = {
	/** The port it listens on (the one asked for, or the one the kernel chose for 0). */
	port: number
	/** Sockets get 4200 (reconnect), then the HTTP server stops. */
	close: () => Promise<void>
}

/**
 * The Pusher-protocol server alone on its own HTTP server: the HTTP events API (`/apps/{id}/…`),
 * WebSockets on `/app/{key}`, and `GET /` answering 200 for health checks; anything else is a 404.
 */
export async function startStandaloneRealtime(options: RealtimeServerOptions & { host: string; port: number }): Promise<StandaloneRealtime> {
	const realtime = createRealtimeServer(options)
	const server = http.createServer((req, res) => {
		realtime.httpHandler(req, res, () => {
			res.writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/plain' })
			res.end(req.url === '/' ? 'OK\n' : 'Not found\n')
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
			const closed = new Promise<void>((resolve) => server.close(() => resolve()))
			server.closeIdleConnections()
			await realtime.close()
			await closed
		},
	}
}
