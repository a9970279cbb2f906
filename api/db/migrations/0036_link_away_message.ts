import { sql, type Kysely } from 'kysely'

/**
 * A chat link's older away message (`settings.awayMessage`, text its page showed, never sent) folds
 * into the away auto-reply (`auto_replies.away`), whose words the page now shows while closed. No
 * owner's words are lost: the reply without text takes the old text; one with other text gets it
 * appended as a paragraph. Whether the reply is sent (`enabled`) stays as the owner set it: the old
 * text was written for the page, so it is not sent until they switch the reply on.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		update channels
		set auto_replies = jsonb_set(
			coalesce(auto_replies, '{}'::jsonb),
			'{away}',
			jsonb_build_object(
				'enabled', coalesce((auto_replies -> 'away' ->> 'enabled')::boolean, false),
				'text', case
					when coalesce(btrim(auto_replies -> 'away' ->> 'text'), '') = '' then btrim(settings ->> 'awayMessage')
					else (auto_replies -> 'away' ->> 'text') || E'\n\n' || btrim(settings ->> 'awayMessage')
				end,
				'translations', coalesce(auto_replies -> 'away' -> 'translations', '{}'::jsonb)
			)
		)
		where kind = 'link'
			and coalesce(btrim(settings ->> 'awayMessage'), '') <> ''
			and coalesce(btrim(auto_replies -> 'away' ->> 'text'), '') <> btrim(settings ->> 'awayMessage')
	`.execute(db)
	await sql`update channels set settings = settings - 'awayMessage' where kind = 'link' and settings ? 'awayMessage'`.execute(db)
}

/** Back: the away reply's text is the page's away message again (at most its old 500 characters); the reply keeps it too. */
export async function down(db: Kysely<unknown>) {
	await sql`
		update channels
		set settings = settings || jsonb_build_object('awayMessage', left(coalesce(auto_replies -> 'away' ->> 'text', ''), 500))
		where kind = 'link'
	`.execute(db)
}
