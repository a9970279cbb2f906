import 'dotenv/config'
import { openDatabase } from '#api/db/database.ts'
import { isDatabaseUnavailable } from '#api/db/errors.ts'
import { exitOnStartFailure, StartupError } from '#config/startup-error.ts'
import { defaultRealtime } from '#api/index.ts'
import { demoAccount, isEmpty, seedDemo } from '#api/db/seed/demo.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner } from '#api/jobs/queue.ts'
import { createAppServer } from '#server/app.ts'
import { ConfigError, generatedSecretWarning, parseConfig } from '#config/config.ts'
import { createLogger, type Logger } from '#server/logger.ts'

async function main() {
	let config
	try {
		config = parseConfig(process.env)
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		process.stderr.write(`${error.message}\n`)
		process.exit(1)
	}
	// The web app's cookies are signed with it; outside production it may have been generated just now.
	process.env.SESSION_SECRET = config.SESSION_SECRET
	process.env.PUBLIC_URL = config.PUBLIC_URL
	const logger = createLogger(config.LOG_LEVEL)
	// graphile-worker 0.17 records a job's outcome (done, failed) without awaiting it, and retries only
	// a few error codes: with the database away, the rejection is unhandled and Node would stop the
	// process for it. That one is logged (the job stays locked, and runs again once its lock expires);
	// any other unhandled rejection still stops the process.
	process.on('unhandledRejection', (reason) => {
		if (!isDatabaseUnavailable(reason)) throw reason
		logger.error(`database unreachable outside a request: ${(reason as Error).message}`)
	})
	for (const name of config.generatedSecrets) logger.warn(generatedSecretWarning(name, config.dataDir))
	const database = await openDatabase({
		databaseUrl: config.DATABASE_URL,
		dataDir: config.dataDir,
		embeddedPort: config.EMBEDDED_PG_PORT,
		log: plainLog(logger),
	})
	if ((config.DEMO || process.argv.includes('--demo')) && (await isEmpty(database.db))) {
		await seedDemo(database.db, (message) => logger.info(message))
		logger.info(`demo: sign in as ${demoAccount.email} / ${demoAccount.password}`)
	}
	const startJobs = () =>
		startJobRunner({
			db: database.db,
			databaseUrl: database.url,
			handlers: jobHandlers,
			log: plainLog(logger.child({ module: 'jobs' })),
			config,
			realtime: defaultRealtime(config, logger),
		})
	const app = await createAppServer({ config, logger, database, startJobs })
	const url = await app.listen().catch(async (error: NodeJS.ErrnoException) => {
		await database.close()
		if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error
		throw new StartupError(
			`${config.HOST}:${config.PORT} cannot be listened on (${error.code === 'EADDRINUSE' ? 'another process listens there' : 'this user may not'}): set PORT=… to another port.`,
		)
	})
	logger.info(`CRM listening on ${url} (public URL ${config.PUBLIC_URL})`)

	let stopping = false
	const stop = async (signal: NodeJS.Signals) => {
		if (stopping) return
		stopping = true
		logger.info(`${signal} received: finishing in-flight requests`)
		// Requests that hang must not keep the process alive for ever.
		const force = setTimeout(() => {
			logger.error('shutdown took over 10 s: exiting')
			process.exit(1)
		}, 10_000)
		force.unref()
		try {
			await app.close()
			logger.info('stopped cleanly')
			process.exit(0)
		} catch (error) {
			logger.error({ err: error }, 'shutdown failed')
			process.exit(1)
		}
	}
	process.on('SIGTERM', stop)
	process.on('SIGINT', stop)
}

/** The logger as the database and the job queue take it: one message, three levels. */
function plainLog(logger: Logger) {
	return {
		info: (message: string) => logger.info(message),
		debug: (message: string) => logger.debug(message),
		error: (message: string) => logger.error(message),
	}
}

main().catch(exitOnStartFailure)
