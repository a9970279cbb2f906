import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import { type Contact, type Database } from '#api/db/schema.ts'
import { containsPattern } from '#api/http/pagination.ts'
import { labelsOfContacts, type LabelSummary } from '#api/labels/queries.ts'
import { type ContactSort, type Cursor, type Direction } from './cursor.ts'

type Executor = Kysely<Database>

export type ContactJson = {
	id: string
	name: string
	email: string | null
	phone: string | null
	company: string | null
	notes: string | null
	attributes: Record<string, string>
	avatarColor: string
	labels: LabelSummary[]
	lastActivityAt: string
	createdAt: string
	updatedAt: string
}

type ContactRow = Omit<Contact, 'nameKey' | 'searchText'>

export const contactEmailConstraint = 'contacts_workspace_email_key'
export const contactLabelConstraint = 'contact_labels_label_fk'

export function contactJson(contact: ContactRow, labels: LabelSummary[]): ContactJson {
	return {
		id: contact.id,
		name: contact.name,
		email: contact.email,
		phone: contact.phone,
		company: contact.company,
		notes: contact.notes,
		attributes: contact.attributes,
		avatarColor: contact.avatarColor,
		labels,
		lastActivityAt: contact.lastActivityAt.toISOString(),
		createdAt: contact.createdAt.toISOString(),
		updatedAt: contact.updatedAt.toISOString(),
	}
}

const contactColumns = [
	'contacts.id',
	'contacts.workspaceId',
	'contacts.name',
	'contacts.email',
	'contacts.phone',
	'contacts.company',
	'contacts.notes',
	'contacts.attributes',
	'contacts.avatarColor',
	'contacts.lastActivityAt',
	'contacts.createdAt',
	'contacts.updatedAt',
] as const

/** Contacts as the API answers them, each with its labels. */
export async function withLabels(db: Executor, contacts: ContactRow[]): Promise<ContactJson[]> {
	const labels = await labelsOfContacts(db, contacts.map((contact) => contact.id))
	return contacts.map((contact) => contactJson(contact, labels.get(contact.id) ?? []))
}

export async function findContact(db: Executor, workspaceId: string, contactId: string): Promise<ContactJson | undefined> {
	const contact = await db.selectFrom('contacts').select(contactColumns).where('workspaceId', '=', workspaceId).where('id', '=', contactId).executeTakeFirst()
	return contact && (await withLabels(db, [contact]))[0]
}

/**
 * What a search looks for: a phone number as its digits (without leading zeros, so that a
 * national `010…` finds `+2010…`), anything else as words that must all appear.
 */
export function searchTerms(search: string): string[] {
	const digits = search.replace(/\D/g, '')
	if (/^[+\d\s().-]+$/.test(search) && digits.length >= 3) return [digits.replace(/^0+/, '') || digits]
	return search.split(/\s+/).filter(Boolean).slice(0, 8)
}

export type ContactFilter = { search?: string; label?: string }

/** Both sides folded by the same function as the trigram-indexed column (case, accents, Arabic marks). */
function filtered<Output>(query: SelectQueryBuilder<Database, 'contacts', Output>, workspaceId: string, filter: ContactFilter) {
	let result = query.where('contacts.workspaceId', '=', workspaceId)
	for (const term of filter.search ? searchTerms(filter.search) : []) {
		result = result.where(sql<boolean>`contacts.search_text like crm_fold(${containsPattern(term)})`)
	}
	const label = filter.label
	if (label) {
		result = result.where((eb: ExpressionBuilder<Database, 'contacts'>) =>
			eb.exists(eb.selectFrom('contactLabels').select(sql`1`.as('one')).whereRef('contactLabels.contactId', '=', 'contacts.id').where('contactLabels.labelId', '=', label)),
		)
	}
	return result
}

// The sort key also travels in the cursor, written by PostgreSQL so that it compares exactly.
const sortKeys = {
	name: { column: 'name_key', text: sql<string>`contacts.name_key`, type: sql`text` },
	created: { column: 'created_at', text: sql<string>`to_char(contacts.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, type: sql`timestamptz` },
	activity: { column: 'last_activity_at', text: sql<string>`to_char(contacts.last_activity_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, type: sql`timestamptz` },
} as const

type PageRow = ContactRow & { sortKey: string; sortValue: unknown; total: number | null }

export type ContactPageQuery = ContactFilter & { sort: ContactSort; direction: Direction; after?: Cursor; limit: number; narrow: boolean }

/**
 * One page in keyset order, (sort key, id) both ascending or both descending, starting after
 * `after`, with the number of matches (unless `counted` is false). Reads `limit + 1` rows to know
 * whether another page follows.
 *
 * `narrow` is for a search: all its matches are read through the trigram index, counted in the
 * same pass, and sorted. Otherwise PostgreSQL walks the sort index and filters, which is quick
 * when matches are spread out but slow when they sort late (every Arabic name comes after the
 * Latin ones), and counts apart.
 */
export async function contactPage(db: Executor, workspaceId: string, query: ContactPageQuery & { counted?: boolean }) {
	const key = sortKeys[query.sort]
	const column = sql.ref(`contacts.${key.column}`)
	const { direction, after } = query
	const matches = filtered(db.selectFrom('contacts'), workspaceId, query)
		.select(contactColumns)
		.select([key.text.as('sortKey'), column.as('sortValue')])
		.select(sql<number | null>`${sql.raw(query.narrow ? 'count(*) over ()' : 'null')}::int`.as('total'))
	const keyset = (value: RawBuilder<unknown>, id: RawBuilder<unknown>, cursor: Cursor) =>
		sql<boolean>`(${value}, ${id}) ${sql.raw(direction === 'desc' ? '<' : '>')} (cast(${cursor.key} as ${key.type}), cast(${cursor.id} as uuid))`

	let rows: PageRow[]
	let total: number | undefined
	if (query.narrow) {
		// The window function needs every match, so PostgreSQL reads them all (bitmap) rather than walking the sort index.
		let page = db.selectFrom(matches.as('matches')).selectAll()
		if (after) page = page.where(keyset(sql.ref('matches.sortValue'), sql.ref('matches.id'), after))
		rows = await page.orderBy(sql.ref('matches.sortValue'), direction).orderBy('matches.id', direction).limit(query.limit + 1).execute()
		// Past the last match there is no row to carry the count.
		total = rows[0]?.total ?? (after ? await countContacts(db, workspaceId, query) : 0)
	} else {
		const page = after ? matches.where(keyset(column, sql.ref('contacts.id'), after)) : matches
		;[rows, total] = await Promise.all([
			page.orderBy(column, direction).orderBy('contacts.id', direction).limit(query.limit + 1).execute(),
			query.counted === false ? undefined : countContacts(db, workspaceId, query),
		])
	}
	const contacts = rows.slice(0, query.limit).map(({ sortKey: _, sortValue: __, total: ___, ...contact }): ContactRow => contact)
	const last = rows[query.limit - 1]
	const next: Cursor | undefined = rows.length > query.limit && last ? { sort: query.sort, direction, key: last.sortKey, id: last.id, narrow: query.narrow } : undefined
	return { contacts, next, total }
}

export async function countContacts(db: Executor, workspaceId: string, filter: ContactFilter): Promise<number> {
	const row = await filtered(db.selectFrom('contacts'), workspaceId, filter)
		.select((eb) => eb.fn.countAll<number>().as('total'))
		.executeTakeFirstOrThrow()
	return row.total
}

/** A search with more matches than this is read by walking the sort index (see `contactPage`). */
const narrowMatches = 20_000

/** How an export reads a filter's matches: all of them for a search with few. */
export async function narrowFor(db: Executor, workspaceId: string, filter: ContactFilter): Promise<boolean> {
	return Boolean(filter.search) && (await countContacts(db, workspaceId, filter)) <= narrowMatches
}

/** A page of the list with the number of matches. A search's first page decides how its next pages read it; the cursor carries the choice. */
export async function listContacts(db: Executor, workspaceId: string, query: Omit<ContactPageQuery, 'narrow'>) {
	const narrow = Boolean(query.search) && (query.after ? query.after.narrow : true)
	const page = await contactPage(db, workspaceId, { ...query, narrow })
	if (query.after || !page.next) return page
	return { ...page, next: { ...page.next, narrow: narrow && (page.total ?? 0) <= narrowMatches } }
}

/** Sets a contact's labels to exactly `labelIds`. */
export async function replaceLabels(trx: Executor, workspaceId: string, contactId: string, labelIds: readonly string[]) {
	let removal = trx.deleteFrom('contactLabels').where('contactId', '=', contactId)
	if (labelIds.length) removal = removal.where('labelId', 'not in', [...labelIds])
	await removal.execute()
	if (labelIds.length === 0) return
	await trx
		.insertInto('contactLabels')
		.values(labelIds.map((labelId) => ({ workspaceId, contactId, labelId })))
		.onConflict((oc) => oc.doNothing())
		.execute()
}
