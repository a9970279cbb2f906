import 'dotenv/config'
import http from 'node:http'
import { createRealtimeServer } from '#realtime/index.ts'
import { ConfigError } from '#server/config.ts'
import { createLogger } from '#server/logger.ts'
import { parseStandaloneRealtimeConfig } from '#server/realtime-config.ts'

/**
 * The embedded Pusher-protocol server alone (`npm run start:realtime`, build/realtime.js), for
 * several app processes to share as they would share Soketi: they set PUSHER_HOST to it and the same
 * PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET. GET /healthz answers while it accepts connections.
 */
function main() {
	let config
	try {
		config = parseStandaloneRealtimeConfig(process.env)
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		process.stderr.write(`${error.message}\n`)
		process.exit(1)
	}
	const logger = createLogger(config.logLevel)
	const realtime = createRealtimeServer({ apps: [config.app], logger: logger.child({ module: 'realtime' }) })
	let stopping = false
	const server = http.createServer((req, res) => {
		realtime.httpHandler(req, res, () => {
			const path = (req.url ?? '').split('?', 1)[0]
			const healthy = (path === '/healthz' || path === '/readyz') && req.method === 'GET'
			res.statusCode = healthy ? (stopping ? 503 : 200) : 404
			res.setHeader('Content-Type', 'application/json')
			res.end(JSON.stringify(healthy ? { status: stopping ? 'stopping' : 'ok', connections: realtime.connectionCount() } : { error: 'Not found' }))
		})
	})
	server.on('upgrade', (req, socket, head) => {
		if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
	})
	server.listen(config.port, config.host, () => {
		const address = server.address()
		const port = address && typeof address === 'object' ? address.port : config.port
		logger.info(`realtime: Pusher-protocol server for app ${config.app.id} listening on ${config.host}:${port}`)
	})
	const stop = (signal: NodeJS.Signals) => {
		if (stopping) return
		stopping = true
		logger.info(`${signal} received: telling sockets to reconnect`)
		const force = setTimeout(() => process.exit(1), 10_000)
		force.unref()
		server.close()
		server.closeIdleConnections()
		realtime.close().then(
			() => {
				logger.info('stopped cleanly')
				process.exit(0)
			},
			(error: unknown) => {
				logger.error({ err: error }, 'shutdown failed')
				process.exit(1)
			},
		)
	}
	process.on('SIGTERM', stop)
	process.on('SIGINT', stop)
}

main()
