import { type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>) {
	// rate-limiter-flexible's RateLimiterPostgres layout, so every app process shares the same counters.
	await db.schema
		.createTable('rate_limits')
		.addColumn('key', 'text', (col) => col.primaryKey())
		.addColumn('points', 'integer', (col) => col.notNull().defaultTo(0))
		.addColumn('expire', 'bigint')
		.execute()
	// The limiter deletes expired counters every few minutes.
	await db.schema.createIndex('rate_limits_expire_idx').on('rate_limits').column('expire').execute()
}

export async function down(db: Kysely<unknown>) {
	await db.schema.dropTable('rate_limits').execute()
}
