import { sql, type Kysely } from 'kysely'

/**
 * A contact's labels are part of what `/v1` shows of it: adding or removing one is a `contact.updated`
 * webhook event. Not when the contact itself is being deleted (its labels go with it, and its
 * `contact.deleted` says so).
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create function crm_webhook_contact_label() returns trigger language plpgsql as $$
		declare
			label_row contact_labels := case when tg_op = 'DELETE' then old else new end;
		begin
			if tg_op = 'DELETE' and not exists (select 1 from contacts where id = old.contact_id) then
				return null;
			end if;
			perform crm_webhook_event(label_row.workspace_id, 'contact.updated', label_row.contact_id, jsonb_build_object('contactId', label_row.contact_id));
			return null;
		end $$
	`.execute(db)
	await sql`create trigger webhook_contact_label after insert or delete on contact_labels for each row execute function crm_webhook_contact_label()`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger webhook_contact_label on contact_labels`.execute(db)
	await sql`drop function crm_webhook_contact_label()`.execute(db)
}
