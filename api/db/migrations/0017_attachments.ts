import { sql, type Kysely } from 'kysely'

/**
 * Files attached to messages (issue 15): what the customer or agent named them, their type and size;
 * the bytes live in the storage (`DATA_DIR/uploads` by default) under `storage_key`, a random id.
 * `status`: `stored`, `too-large` (kept as a note: the provider's file was over UPLOAD_MAX_BYTES)
 * or `failed` (the provider would not give it).
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table attachments (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			message_id bigint not null references messages(id) on delete cascade,
			kind text not null check (kind in ('image', 'audio', 'video', 'file')),
			filename text not null,
			content_type text not null,
			size bigint,
			status text not null default 'stored' check (status in ('stored', 'too-large', 'failed')),
			storage_key text,
			created_at timestamptz not null default now(),
			constraint attachments_stored_key check (status <> 'stored' or storage_key is not null),
			constraint attachments_filename_length check (char_length(filename) between 1 and 255)
		)
	`.execute(db)
	await sql`create index attachments_message_idx on attachments (message_id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table attachments`.execute(db)
}
