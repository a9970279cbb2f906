import { sql, type Kysely } from 'kysely'

/** Today's messages of each channel (the channels list): read from this index, not by scanning a workspace's messages. */
export async function up(db: Kysely<unknown>) {
	await sql`create index messages_channel_created_idx on messages (channel_id, created_at)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop index messages_channel_created_idx`.execute(db)
}
