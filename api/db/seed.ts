import 'dotenv/config'
import { hashPassword } from '#api/auth/password.ts'
import { parseConfig } from '#server/config.ts'
import { openDatabase } from './database.ts'

/**
 * `npm run db:seed`: a demo owner with a workspace and two teammates, so a new user can look
 * around. Idempotent: running it again changes nothing.
 */
const demo = { email: 'demo@example.com', password: 'Demo-password-1', name: 'Demo Owner' }
const teammates = [
	{ email: 'amira@example.com', name: 'أميرة حسن', role: 'admin' as const },
	{ email: 'julien@example.com', name: 'Julien Martin', role: 'agent' as const },
]

const config = parseConfig(process.env)
const log = { info: (m: string) => process.stdout.write(`${m}\n`), debug: () => {}, error: (m: string) => process.stderr.write(`${m}\n`) }
const { db, close } = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, embeddedPort: config.EMBEDDED_PG_PORT, log })

try {
	await db.transaction().execute(async (trx) => {
		const workspace =
			(await trx.selectFrom('workspaces').select('id').where('slug', '=', 'demo').executeTakeFirst()) ??
			(await trx.insertInto('workspaces').values({ name: 'Demo Workspace', slug: 'demo', timezone: 'Africa/Cairo' }).returning('id').executeTakeFirstOrThrow())
		const passwordHash = await hashPassword(demo.password)
		for (const person of [{ ...demo, role: 'owner' as const }, ...teammates]) {
			const user = await trx
				.insertInto('users')
				.values({ email: person.email, name: person.name, passwordHash, emailVerifiedAt: new Date(), currentWorkspaceId: workspace.id })
				.onConflict((oc) => oc.column('email').doUpdateSet({ name: person.name }))
				.returning('id')
				.executeTakeFirstOrThrow()
			await trx
				.insertInto('members')
				.values({ workspaceId: workspace.id, userId: user.id, role: person.role })
				.onConflict((oc) => oc.columns(['workspaceId', 'userId']).doNothing())
				.execute()
		}
	})
	log.info(`seeded the demo workspace: ${demo.email} / ${demo.password} (teammates share the password)`)
} finally {
	await close()
}
