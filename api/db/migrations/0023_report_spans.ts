import { sql, type Kysely } from 'kysely'

/**
 * The roll-ups' notes (0020) of a conversation's labels and of its changes (assignee, first
 * response, channel, start) covered the conversation from its start to its last activity. A message
 * older than its conversation's start (a thread backdated message by message, an import) lay
 * outside: a label added later left that message's day without it. The span now begins at the
 * earlier of the conversation's start and its first message.
 */
const firstMessage = (conversation: string) => `(select min(created_at) from messages where conversation_id = ${conversation})`

function note(name: string, select: string) {
	return sql`
		create or replace function ${sql.raw(name)}() returns trigger language plpgsql as $$
		begin
			insert into report_dirty (workspace_id, from_at, to_at) ${sql.raw(select)};
			return null;
		end $$
	`
}

const labelled = (rows: string, from: string) =>
	`select c.workspace_id, min(${from}), max(greatest(c.last_activity_at, c.created_at)) from ${rows} r join conversations c on c.id = r.conversation_id group by c.workspace_id`

const changed = (from: string) =>
	`select n.workspace_id, min(${from}), max(greatest(n.last_activity_at, o.last_activity_at, n.first_response_at, o.first_response_at, n.created_at))
	from new_rows n join old_rows o on o.id = n.id
	where n.assignee_id is distinct from o.assignee_id or n.first_response_at is distinct from o.first_response_at or n.channel_id is distinct from o.channel_id or n.created_at <> o.created_at
	group by n.workspace_id`

export async function up(db: Kysely<unknown>) {
	const from = `least(c.created_at, ${firstMessage('c.id')})`
	await note('crm_report_labels_new', labelled('new_rows', from)).execute(db)
	await note('crm_report_labels_old', labelled('old_rows', from)).execute(db)
	await note('crm_report_conversations_changed', changed(`least(n.created_at, o.created_at, ${firstMessage('n.id')})`)).execute(db)
}

export async function down(db: Kysely<unknown>) {
	await note('crm_report_labels_new', labelled('new_rows', 'c.created_at')).execute(db)
	await note('crm_report_labels_old', labelled('old_rows', 'c.created_at')).execute(db)
	await note('crm_report_conversations_changed', changed('least(n.created_at, o.created_at)')).execute(db)
}
