import 'dotenv/config'
import { startStandaloneRealtime } from '#realtime/standalone.ts'
import { ConfigError } from '#config/config.ts'
import { createLogger } from '#server/logger.ts'
import { parseStandaloneRealtimeConfig, realtimeServerOptions } from '#config/realtime-config.ts'

/**
 * The embedded Pusher-protocol server alone (`npm run start:realtime`, build/realtime.js), for
 * several app processes to share as they would share Soketi: they set PUSHER_HOST to it and the same
 * PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET. GET /healthz answers while it accepts connections.
 */
async function main() {
	let config
	try {
		config = parseStandaloneRealtimeConfig(process.env)
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		process.stderr.write(`${error.message}\n`)
		process.exit(1)
	}
	const logger = createLogger(config.logLevel)
	const server = await startStandaloneRealtime({
		host: config.host,
		port: config.port,
		apps: [{ ...config.app, webhooks: config.webhookUrl ? [{ url: config.webhookUrl, eventTypes: ['member_added', 'member_removed'] }] : [] }],
		logger: logger.child({ module: 'realtime' }),
		...realtimeServerOptions(config.limits),
	})
	logger.info(`realtime: Pusher-protocol server for app ${config.app.id} listening on ${config.host}:${server.port}`)
	let stopping = false
	const stop = (signal: NodeJS.Signals) => {
		if (stopping) return
		stopping = true
		logger.info(`${signal} received: telling sockets to reconnect`)
		setTimeout(() => process.exit(1), 10_000).unref()
		server.close().then(
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

main().catch((error: unknown) => {
	process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
	process.exit(1)
})
