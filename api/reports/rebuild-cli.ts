import 'dotenv/config'
import { parseArgs } from 'node:util'
import { openDatabase } from '#api/db/database.ts'
import { parseConfig } from '#config/config.ts'
import { rebuildReports } from './rollup.ts'

/**
 * `npm run reports:rebuild [-- --workspace <id>]`: recomputes the reports' daily roll-ups of every
 * workspace (or one) from their facts. The `refresh-reports` job keeps them current; this is for
 * after a restore, a bulk import made with triggers off, or a doubt. Safe beside a running server.
 */
const { values } = parseArgs({ options: { workspace: { type: 'string' } } })
const config = parseConfig(process.env)
const log = { info: (m: string) => process.stdout.write(`${m}\n`), debug: () => {}, error: (m: string) => process.stderr.write(`${m}\n`) }
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, embeddedPort: config.EMBEDDED_PG_PORT, log })
const started = performance.now()
try {
	await rebuildReports(database.db, values.workspace)
	log.info(`reports rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`)
} finally {
	await database.close()
}
