import { sql, type Kysely } from 'kysely'

/**
 * How many contacts a workspace and a label have, kept up to date by statement-level triggers, so
 * that a list reads a number instead of counting 100 000 rows. One UPDATE per statement (an import
 * batch of 1 000 rows is one), not per row. Writers of one workspace queue on its row until they
 * commit; rows are locked workspace first, then labels by id, so that they never deadlock.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table workspaces add column contact_count integer not null default 0`.execute(db)
	await sql`alter table labels add column contact_count integer not null default 0`.execute(db)

	await sql`
		create function crm_count_contacts() returns trigger language plpgsql as $$
		begin
			if tg_op = 'INSERT' then
				update workspaces set contact_count = contact_count + changed.count
					from (select workspace_id, count(*) as count from new_rows group by workspace_id) changed where workspaces.id = changed.workspace_id;
			else
				update workspaces set contact_count = contact_count - changed.count
					from (select workspace_id, count(*) as count from old_rows group by workspace_id) changed where workspaces.id = changed.workspace_id;
			end if;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger contacts_count_inserted after insert on contacts referencing new table as new_rows for each statement execute function crm_count_contacts()`.execute(
		db,
	)
	await sql`create trigger contacts_count_deleted after delete on contacts referencing old table as old_rows for each statement execute function crm_count_contacts()`.execute(
		db,
	)

	// A contact's deletion reaches contact_labels (cascade) before its own trigger runs: the workspace is locked here first too.
	await sql`
		create function crm_count_contact_labels() returns trigger language plpgsql as $$
		begin
			if tg_op = 'INSERT' then
				perform 1 from workspaces where id in (select workspace_id from new_rows) order by id for no key update;
				perform 1 from labels where id in (select label_id from new_rows) order by id for no key update;
				update labels set contact_count = contact_count + changed.count
					from (select label_id, count(*) as count from new_rows group by label_id) changed where labels.id = changed.label_id;
			else
				perform 1 from workspaces where id in (select workspace_id from old_rows) order by id for no key update;
				perform 1 from labels where id in (select label_id from old_rows) order by id for no key update;
				update labels set contact_count = contact_count - changed.count
					from (select label_id, count(*) as count from old_rows group by label_id) changed where labels.id = changed.label_id;
			end if;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger contact_labels_count_inserted after insert on contact_labels referencing new table as new_rows for each statement execute function crm_count_contact_labels()`.execute(
		db,
	)
	await sql`create trigger contact_labels_count_deleted after delete on contact_labels referencing old table as old_rows for each statement execute function crm_count_contact_labels()`.execute(
		db,
	)

	await sql`update workspaces set contact_count = (select count(*) from contacts where contacts.workspace_id = workspaces.id)`.execute(db)
	await sql`update labels set contact_count = (select count(*) from contact_labels where contact_labels.label_id = labels.id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger contact_labels_count_deleted on contact_labels`.execute(db)
	await sql`drop trigger contact_labels_count_inserted on contact_labels`.execute(db)
	await sql`drop trigger contacts_count_deleted on contacts`.execute(db)
	await sql`drop trigger contacts_count_inserted on contacts`.execute(db)
	await sql`drop function crm_count_contact_labels()`.execute(db)
	await sql`drop function crm_count_contacts()`.execute(db)
	await sql`alter table labels drop column contact_count`.execute(db)
	await sql`alter table workspaces drop column contact_count`.execute(db)
}
