import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { visibleTo, type Reader } from '#api/conversations/visibility.ts'

/** How many of a contact's ratings its page lists. */
export const latestRatings = 5

/** A contact's ratings: how many, their average, and the latest, of the conversations the reader sees. */
export type ContactSatisfactionJson = {
	rated: number
	/** Rounded to two decimals; null without a rating. */
	averageRating: number | null
	latest: Array<{ rating: number; comment: string | null; conversation: { number: number }; answeredAt: string }>
}

/** The ratings of the workspace's contact `contactId`, counted only on the conversations `reader` sees (issue 30). */
export async function contactSatisfaction(db: DB, workspaceId: string, contactId: string, reader: Reader): Promise<ContactSatisfactionJson> {
	const rated = db
		.selectFrom('satisfactionSurveys')
		.innerJoin('conversations', 'conversations.id', 'satisfactionSurveys.conversationId')
		.where('satisfactionSurveys.workspaceId', '=', workspaceId)
		.where('satisfactionSurveys.contactId', '=', contactId)
		.where('satisfactionSurveys.rating', 'is not', null)
		.where(visibleTo(workspaceId, reader))
	const [totals, latest] = await Promise.all([
		rated
			.select([sql<number>`count(*)::int`.as('rated'), sql<string | null>`round(avg(satisfaction_surveys.rating), 2)`.as('averageRating')])
			.executeTakeFirstOrThrow(),
		rated
			.select(['satisfactionSurveys.rating', 'satisfactionSurveys.comment', 'satisfactionSurveys.answeredAt', 'conversations.number'])
			.orderBy('satisfactionSurveys.answeredAt', 'desc')
			.orderBy('satisfactionSurveys.id', 'desc')
			.limit(latestRatings)
			.execute(),
	])
	return {
		rated: totals.rated,
		averageRating: totals.averageRating === null ? null : Number(totals.averageRating),
		latest: latest.map((row) => ({
			rating: row.rating!,
			comment: row.comment,
			conversation: { number: row.number },
			answeredAt: row.answeredAt!.toISOString(),
		})),
	}
}
