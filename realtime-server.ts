import 'dotenv/config'
import { z } from 'zod'
import { startStandaloneRealtime } from '#realtime/standalone.ts'
import { createLogger } from '#server/logger.ts'

/**
 * `npm run start:realtime`: the Pusher-protocol server of `realtime/` alone, for an app configured
 * with PUSHER_HOST pointing at it (external mode). It reads the app's own variables: PUSHER_APP_ID,
 * PUSHER_KEY and PUSHER_SECRET (the one app it serves), PUSHER_PORT (where it listens, 6001 by
 * default) and HOST. Behind TLS, terminate it in a proxy and set PUSHER_FORCE_TLS on the app.
 */
const environment = z.object({
	HOST: z.string().trim().min(1).default('0.0.0.0'),
	PUSHER_PORT: z.coerce.number().int().min(1).max(65_535).default(6001),
	PUSHER_APP_ID: z.string({ required_error: 'PUSHER_APP_ID is required' }).trim().min(1, 'PUSHER_APP_ID is required'),
	PUSHER_KEY: z.string({ required_error: 'PUSHER_KEY is required' }).trim().min(1, 'PUSHER_KEY is required'),
	PUSHER_SECRET: z.string({ required_error: 'PUSHER_SECRET is required' }).trim().min(8, 'PUSHER_SECRET must have at least 8 characters'),
	LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

async function main() {
	const parsed = environment.safeParse(process.env)
	if (!parsed.success) {
		process.stderr.write(`${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')}\n`)
		process.exit(1)
	}
	const env = parsed.data
	const logger = createLogger(env.LOG_LEVEL)
	const server = await startStandaloneRealtime({
		host: env.HOST,
		port: env.PUSHER_PORT,
		apps: [{ id: env.PUSHER_APP_ID, key: env.PUSHER_KEY, secret: env.PUSHER_SECRET }],
		logger,
	})
	logger.info(`realtime server listening on ${env.HOST}:${server.port} (app ${env.PUSHER_APP_ID})`)
	let stopping = false
	const stop = (signal: NodeJS.Signals) => {
		if (stopping) return
		stopping = true
		logger.info(`${signal} received: telling clients to reconnect`)
		server.close().then(
			() => process.exit(0),
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
