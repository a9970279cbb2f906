import { sql, type Kysely } from 'kysely'

/**
 * Automation rules (issue 31): a workspace's rules, run in `position` order on an event, and their
 * runs. A run's `(rule_id, event_key)` is unique: the same event never runs a rule twice, whatever
 * the job's retries or the processes taking it. `conversations.muted_at` is the rules' mute.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table automation_rules (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			name text not null check (length(name) between 1 and 80),
			enabled boolean not null default true,
			event text not null,
			match text not null default 'all' check (match in ('all', 'any')),
			conditions jsonb not null default '[]',
			actions jsonb not null,
			stop_after boolean not null default false,
			position integer not null,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now(),
			constraint automation_rules_workspace_id_key unique (workspace_id, id)
		)
	`.execute(db)
	// What a change asks (does the workspace have a rule for this event?) and the run's list, in order.
	await sql`create index automation_rules_event_idx on automation_rules (workspace_id, event, position) where enabled`.execute(db)
	await sql`create index automation_rules_position_idx on automation_rules (workspace_id, position)`.execute(db)

	await sql`
		create table automation_runs (
			id bigint generated always as identity primary key,
			rule_id uuid not null,
			workspace_id uuid not null,
			conversation_id uuid references conversations(id) on delete set null,
			event text not null,
			event_key text not null,
			depth integer not null,
			outcome text not null check (outcome in ('done', 'failed', 'stopped')),
			actions jsonb not null default '[]',
			error jsonb,
			created_at timestamptz not null default now(),
			constraint automation_runs_rule_fk foreign key (workspace_id, rule_id) references automation_rules (workspace_id, id) on delete cascade,
			constraint automation_runs_once_key unique (rule_id, event_key)
		)
	`.execute(db)
	// A rule's run log, newest first, and its pruning past the last 1 000.
	await sql`create index automation_runs_rule_idx on automation_runs (rule_id, id desc)`.execute(db)
	await sql`create index automation_runs_conversation_idx on automation_runs (conversation_id)`.execute(db)

	await sql`alter table conversations add column muted_at timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table conversations drop column muted_at`.execute(db)
	await sql`drop table automation_runs`.execute(db)
	await sql`drop table automation_rules`.execute(db)
}
