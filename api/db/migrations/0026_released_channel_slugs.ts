import { sql, type Kysely } from 'kysely'

/**
 * The slugs link channels gave up (deleted, their workspace deleted, or renamed), with the workspace
 * that had it and when (issue 26): the address stays that workspace's for a while (30 days,
 * api/channels/queries.ts), so that visitors of an old link, an embedded chat or a printed QR code
 * do not land on a page another workspace took at once. No foreign key: a deleted workspace's slugs
 * stay reserved too. Written by a trigger, so that every way a channel or its workspace goes
 * (the API, a cascade) keeps it.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table released_channel_slugs (
			slug citext primary key,
			workspace_id uuid not null,
			released_at timestamptz not null default now()
		)
	`.execute(db)
	await sql`
		create function release_channel_slug() returns trigger language plpgsql as $$
		begin
			if tg_op = 'UPDATE' and new.slug is not distinct from old.slug then
				return null;
			end if;
			insert into released_channel_slugs (slug, workspace_id) values (old.slug, old.workspace_id)
			on conflict (slug) do update set workspace_id = excluded.workspace_id, released_at = now();
			return null;
		end
		$$
	`.execute(db)
	await sql`
		create trigger release_channel_slug after delete or update of slug on channels
		for each row when (old.slug is not null)
		execute function release_channel_slug()
	`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger release_channel_slug on channels`.execute(db)
	await sql`drop function release_channel_slug()`.execute(db)
	await sql`drop table released_channel_slugs`.execute(db)
}
