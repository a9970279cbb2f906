import 'dotenv/config'
import { parseConfig } from '#config/config.ts'
import { openDatabase } from './database.ts'
import { exitOnStartFailure } from '#config/startup-error.ts'

// `npm run db:migrate`: brings the schema up to date (the server also does it at start).
const config = parseConfig(process.env)
const log = { info: (m: string) => process.stdout.write(`${m}\n`), debug: () => {}, error: (m: string) => process.stderr.write(`${m}\n`) }
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, embeddedPort: config.EMBEDDED_PG_PORT, log }).catch(
	exitOnStartFailure,
)
log.info('database is up to date')
await database.close()
