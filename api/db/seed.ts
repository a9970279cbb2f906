import 'dotenv/config'
import { parseConfig } from '#config/config.ts'
import { openDatabase } from './database.ts'
import { exitOnStartFailure } from '#config/startup-error.ts'
import { demoAccount, seedDemo } from './seed/demo.ts'

/**
 * `npm run db:seed`: the demo workspace, so a new user can look around. Idempotent, and it works
 * beside a running server on the same DATA_DIR (it then uses that server's embedded PostgreSQL).
 */
const config = parseConfig(process.env)
const log = { info: (m: string) => process.stdout.write(`${m}\n`), debug: () => {}, error: (m: string) => process.stderr.write(`${m}\n`) }
const { db, close } = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, embeddedPort: config.EMBEDDED_PG_PORT, log }).catch(
	exitOnStartFailure,
)

try {
	await seedDemo(db, log.info)
	log.info(
		`seeded the demo workspace: sign in as ${demoAccount.email} / ${demoAccount.password} (teammates amira@example.com and julien@example.com share the password)`,
	)
} finally {
	await close()
}
