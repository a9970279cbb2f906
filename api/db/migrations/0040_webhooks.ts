import { sql, type Kysely } from 'kysely'

/**
 * Outgoing webhooks (issue 33, api/outgoing-webhooks/): a workspace's subscriptions (or a channel's,
 * the API channel's callback), an outbox that triggers fill in the transaction of each change, and
 * the deliveries the fan-out job makes of it, each with its payload as sent and its last answer.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table webhook_subscriptions (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			-- Set only for an API channel's callback: it hears of its own conversations only.
			channel_id uuid references channels(id) on delete cascade,
			url text not null,
			events text[] not null,
			enabled boolean not null default true,
			-- whsec_…, sealed as channel credentials are (api/channels/crypto.ts).
			secret text not null,
			failing_since timestamptz,
			disabled_at timestamptz,
			created_by uuid references users(id) on delete set null,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now()
		)
	`.execute(db)
	await sql`create index webhook_subscriptions_workspace_idx on webhook_subscriptions (workspace_id) where enabled`.execute(db)
	await sql`create unique index webhook_subscriptions_channel_idx on webhook_subscriptions (channel_id) where channel_id is not null`.execute(db)

	// No foreign key: a workspace's deletion cascades to its contacts, whose trigger writes here meanwhile.
	await sql`
		create table webhook_events (
			id bigint generated always as identity primary key,
			workspace_id uuid not null,
			type text not null,
			ordering_key uuid not null,
			subject jsonb not null,
			created_at timestamptz not null default now()
		)
	`.execute(db)
	await sql`create index webhook_events_workspace_idx on webhook_events (workspace_id, id)`.execute(db)

	await sql`
		create table webhook_deliveries (
			id bigint generated always as identity primary key,
			workspace_id uuid not null references workspaces(id) on delete cascade,
			subscription_id uuid not null references webhook_subscriptions(id) on delete cascade,
			event_type text not null,
			webhook_id text not null,
			payload text not null,
			ordering_key uuid not null,
			-- The outgoing message a channel's callback carries: its delivery status follows this one's outcome.
			message_id bigint,
			status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
			attempts integer not null default 0,
			next_attempt_at timestamptz,
			last_attempt_at timestamptz,
			response_status integer,
			response_body text,
			error text,
			created_at timestamptz not null default now(),
			delivered_at timestamptz
		)
	`.execute(db)
	// A key's pending deliveries, oldest first (the delivery job's queue), and a subscription's log, newest first.
	await sql`create index webhook_deliveries_pending_idx on webhook_deliveries (subscription_id, ordering_key, id) where status = 'pending'`.execute(db)
	await sql`create index webhook_deliveries_log_idx on webhook_deliveries (subscription_id, id desc)`.execute(db)
	await sql`create index webhook_deliveries_created_idx on webhook_deliveries (created_at)`.execute(db)

	// One event into the outbox, only when an enabled subscription of the workspace asks for its type, and the fan-out
	// job woken once per workspace and transaction (a transaction-local setting remembers it): a customer's message
	// makes several events, and add_job with a key costs a few statements each time.
	await sql`
		create function crm_webhook_event(p_workspace uuid, p_type text, p_key uuid, p_subject jsonb) returns void language plpgsql as $$
		declare
			woken text := 'crm.webhooks_woken_' || replace(p_workspace::text, '-', '');
		begin
			if exists (select 1 from webhook_subscriptions where workspace_id = p_workspace and enabled and p_type = any(events)) then
				insert into webhook_events (workspace_id, type, ordering_key, subject) values (p_workspace, p_type, p_key, p_subject);
				if coalesce(current_setting(woken, true), '') = txid_current()::text then
					return;
				end if;
				perform set_config(woken, txid_current()::text, true);
				perform graphile_worker.add_job(
					'fan-out-webhooks',
					json_build_object('workspaceId', p_workspace),
					queue_name => 'webhooks-fan-out:' || p_workspace,
					job_key => 'webhooks-fan-out:' || p_workspace,
					job_key_mode => 'preserve_run_at'
				);
			end if;
		end $$
	`.execute(db)

	await sql`
		create function crm_webhook_conversation() returns trigger language plpgsql as $$
		declare
			subject jsonb := jsonb_build_object('conversationId', new.id);
		begin
			if tg_op = 'INSERT' then
				perform crm_webhook_event(new.workspace_id, 'conversation.created', new.id, subject);
				return null;
			end if;
			perform crm_webhook_event(new.workspace_id, 'conversation.updated', new.id, subject);
			if new.status is distinct from old.status then
				perform crm_webhook_event(new.workspace_id, 'conversation.status_changed', new.id, subject || jsonb_build_object('previousStatus', old.status));
			end if;
			if new.assignee_id is distinct from old.assignee_id then
				perform crm_webhook_event(new.workspace_id, 'conversation.assigned', new.id, subject || jsonb_build_object('previousAssigneeId', old.assignee_id));
			end if;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger webhook_conversation_created after insert on conversations for each row execute function crm_webhook_conversation()`.execute(db)
	await sql`
		create trigger webhook_conversation_updated after update of status, assignee_id, team_id, priority, snoozed_until on conversations for each row
		when ((old.status, old.assignee_id, old.team_id, old.priority, old.snoozed_until) is distinct from (new.status, new.assignee_id, new.team_id, new.priority, new.snoozed_until))
		execute function crm_webhook_conversation()
	`.execute(db)

	await sql`
		create function crm_webhook_conversation_label() returns trigger language plpgsql as $$
		begin
			if tg_op = 'DELETE' then
				perform crm_webhook_event(old.workspace_id, 'conversation.updated', old.conversation_id, jsonb_build_object('conversationId', old.conversation_id));
			else
				perform crm_webhook_event(new.workspace_id, 'conversation.updated', new.conversation_id, jsonb_build_object('conversationId', new.conversation_id));
			end if;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger webhook_conversation_label after insert or delete on conversation_labels for each row execute function crm_webhook_conversation_label()`.execute(
		db,
	)

	await sql`
		create function crm_webhook_message() returns trigger language plpgsql as $$
		begin
			perform crm_webhook_event(
				new.workspace_id,
				case when tg_op = 'INSERT' then 'message.created' else 'message.updated' end,
				new.conversation_id,
				jsonb_build_object('conversationId', new.conversation_id, 'messageId', new.id::text)
			);
			return null;
		end $$
	`.execute(db)
	// Texts and notes, not activity lines; then their delivery status.
	await sql`create trigger webhook_message_created after insert on messages for each row when (new.kind in ('text', 'note')) execute function crm_webhook_message()`.execute(
		db,
	)
	await sql`
		create trigger webhook_message_updated after update of status on messages for each row
		when (new.kind in ('text', 'note') and new.status is distinct from old.status) execute function crm_webhook_message()
	`.execute(db)

	await sql`
		create function crm_webhook_contact() returns trigger language plpgsql as $$
		begin
			if tg_op = 'DELETE' then
				-- Gone by the time the fan-out runs: what the API showed of it, kept now.
				perform crm_webhook_event(old.workspace_id, 'contact.deleted', old.id, jsonb_build_object('contactId', old.id, 'contact', jsonb_build_object(
					'id', old.id, 'name', old.name, 'email', old.email, 'unverifiedEmail', old.unverified_email, 'phone', old.phone, 'company', old.company,
					'notes', old.notes, 'attributes', old.attributes, 'avatarColor', old.avatar_color,
					'lastActivityAt', to_char(old.last_activity_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
					'createdAt', to_char(old.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
					'updatedAt', to_char(old.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
				)));
				return null;
			end if;
			perform crm_webhook_event(new.workspace_id, case when tg_op = 'INSERT' then 'contact.created' else 'contact.updated' end, new.id, jsonb_build_object('contactId', new.id));
			return null;
		end $$
	`.execute(db)
	await sql`create trigger webhook_contact_created after insert on contacts for each row execute function crm_webhook_contact()`.execute(db)
	// What the API shows of a contact, not its last activity (which every message moves).
	await sql`
		create trigger webhook_contact_updated after update of name, email, unverified_email, phone, company, notes, attributes, opted_out_at on contacts for each row
		when ((old.name, old.email, old.unverified_email, old.phone, old.company, old.notes, old.attributes, old.opted_out_at)
			is distinct from (new.name, new.email, new.unverified_email, new.phone, new.company, new.notes, new.attributes, new.opted_out_at))
		execute function crm_webhook_contact()
	`.execute(db)
	await sql`create trigger webhook_contact_deleted after delete on contacts for each row execute function crm_webhook_contact()`.execute(db)

	await sql`
		create function crm_webhook_campaign() returns trigger language plpgsql as $$
		begin
			perform crm_webhook_event(new.workspace_id, 'campaign.completed', new.id, jsonb_build_object('campaignId', new.id));
			return null;
		end $$
	`.execute(db)
	await sql`
		create trigger webhook_campaign_completed after update of status on campaigns for each row
		when (new.status = 'completed' and old.status is distinct from 'completed') execute function crm_webhook_campaign()
	`.execute(db)

	await sql`
		create function crm_webhook_survey() returns trigger language plpgsql as $$
		begin
			perform crm_webhook_event(new.workspace_id, 'csat.rated', new.conversation_id, jsonb_build_object('surveyId', new.id, 'conversationId', new.conversation_id));
			return null;
		end $$
	`.execute(db)
	await sql`
		create trigger webhook_survey_rated after update of rating on satisfaction_surveys for each row
		when (new.rating is not null and old.rating is distinct from new.rating) execute function crm_webhook_survey()
	`.execute(db)
	await sql`create trigger webhook_survey_rated_at_once after insert on satisfaction_surveys for each row when (new.rating is not null) execute function crm_webhook_survey()`.execute(
		db,
	)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger webhook_survey_rated_at_once on satisfaction_surveys`.execute(db)
	await sql`drop trigger webhook_survey_rated on satisfaction_surveys`.execute(db)
	await sql`drop trigger webhook_campaign_completed on campaigns`.execute(db)
	await sql`drop trigger webhook_contact_deleted on contacts`.execute(db)
	await sql`drop trigger webhook_contact_updated on contacts`.execute(db)
	await sql`drop trigger webhook_contact_created on contacts`.execute(db)
	await sql`drop trigger webhook_message_updated on messages`.execute(db)
	await sql`drop trigger webhook_message_created on messages`.execute(db)
	await sql`drop trigger webhook_conversation_label on conversation_labels`.execute(db)
	await sql`drop trigger webhook_conversation_updated on conversations`.execute(db)
	await sql`drop trigger webhook_conversation_created on conversations`.execute(db)
	for (const name of ['survey', 'campaign', 'contact', 'message', 'conversation_label', 'conversation']) {
		await sql`drop function ${sql.raw(`crm_webhook_${name}`)}()`.execute(db)
	}
	await sql`drop function crm_webhook_event(uuid, text, uuid, jsonb)`.execute(db)
	await sql`drop table webhook_deliveries`.execute(db)
	await sql`drop table webhook_events`.execute(db)
	await sql`drop table webhook_subscriptions`.execute(db)
}
