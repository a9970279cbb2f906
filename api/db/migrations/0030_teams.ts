import { sql, type Kysely } from 'kysely'

/**
 * Teams and auto-assignment (issue 30). A team's members are members of its workspace; a channel
 * names the team its new conversations go to; a conversation has a team, and waits in its queue
 * (`queued_at`) while nobody of an auto-assigning team has room. Composite keys keep every link
 * inside one workspace. Their keys to a team take no action: deleting a team first leaves its
 * channels and conversations without one, in the same transaction (a composite key cannot set only
 * its team column to null before PostgreSQL 15, and the product supports 14).
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table teams (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			name citext not null check (length(name) between 1 and 80),
			description text check (length(description) <= 500),
			auto_assign boolean not null default false,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now(),
			constraint teams_workspace_name_key unique (workspace_id, name),
			constraint teams_workspace_id_key unique (workspace_id, id)
		)
	`.execute(db)

	// A member who leaves the workspace leaves its teams.
	await sql`
		create table team_members (
			workspace_id uuid not null,
			team_id uuid not null,
			user_id uuid not null,
			created_at timestamptz not null default now(),
			primary key (team_id, user_id),
			constraint team_members_team_fk foreign key (workspace_id, team_id) references teams (workspace_id, id) on delete cascade,
			constraint team_members_member_fk foreign key (workspace_id, user_id) references members (workspace_id, user_id) on delete cascade
		)
	`.execute(db)
	await sql`create index team_members_user_idx on team_members (workspace_id, user_id)`.execute(db)

	await sql`alter table channels add column team_id uuid`.execute(db)
	await sql`alter table channels add constraint channels_team_fk foreign key (workspace_id, team_id) references teams (workspace_id, id)`.execute(db)
	await sql`alter table conversations add column team_id uuid, add column queued_at timestamptz`.execute(db)
	await sql`alter table conversations add constraint conversations_team_fk foreign key (workspace_id, team_id) references teams (workspace_id, id)`.execute(db)
	// A team's queue, oldest first; and the team filter of the inbox.
	await sql`create index conversations_team_queue_idx on conversations (team_id, queued_at, id) where queued_at is not null`.execute(db)
	await sql`create index conversations_team_activity_idx on conversations (workspace_id, team_id, last_activity_at, id)`.execute(db)
	// An agent's open conversations, counted at every assignment.
	await sql`create index conversations_assignee_open_idx on conversations (workspace_id, assignee_id) where status = 'open'`.execute(db)

	// Capacity: open conversations at most (null: no limit); when the agent was last given one (the tie-break);
	// whether the product turned them offline after their last connection closed (they come back online by themselves).
	await sql`
		alter table members
			add column capacity integer check (capacity >= 0),
			add column last_assigned_at timestamptz,
			add column offline_by_presence boolean not null default false
	`.execute(db)
	// The workspace's default capacity (null: no limit), what a reopened conversation whose assignee is away does,
	// and whether agents see only their teams' conversations.
	await sql`
		alter table workspaces
			add column default_capacity integer check (default_capacity >= 0),
			add column reopen_assignment text not null default 'keep' check (reopen_assignment in ('keep', 'reassign')),
			add column agents_see_own_teams boolean not null default false
	`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table workspaces drop column default_capacity, drop column reopen_assignment, drop column agents_see_own_teams`.execute(db)
	await sql`alter table members drop column capacity, drop column last_assigned_at, drop column offline_by_presence`.execute(db)
	await sql`alter table conversations drop column team_id, drop column queued_at`.execute(db)
	await sql`alter table channels drop column team_id`.execute(db)
	await sql`drop table team_members`.execute(db)
	await sql`drop table teams`.execute(db)
}
