import { sql, type Kysely } from 'kysely'

/**
 * A chat-link visitor is always a contact of their own (issue 26): the e-mail they type is a claim,
 * kept apart from the contact's e-mail (which is unique in the workspace and trusted by campaigns)
 * until an agent merges them into the contact it names. Their conversation is found by their
 * identity, not their contact: after a merge a contact has several identities on one link channel,
 * each with a thread of its own.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table contacts add column unverified_email citext`.execute(db)
	await sql`create index conversations_identity_idx on conversations (identity_id, created_at) where identity_id is not null`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop index conversations_identity_idx`.execute(db)
	await sql`alter table contacts drop column unverified_email`.execute(db)
}
