import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import { type ChannelKind, type Contact, type Database } from '#api/db/schema.ts'
import { containsPattern } from '#api/http/pagination.ts'
import { type LabelSummary } from '#api/labels/queries.ts'
import { type ContactSort, type Cursor, type Direction } from './cursor.ts'

type Executor = Kysely<Database>

export type ContactJson = {
	id: string
	name: string
	email: string | null
	/** The e-mail a chat-link visitor typed: their claim, not checked; `email` is the contact's own. */
	unverifiedEmail: string | null
	phone: string | null
	company: string | null
	notes: string | null
	attributes: Record<string, string>
	avatarColor: string
	labels: LabelSummary[]
	lastActivityAt: string
	createdAt: string
	updatedAt: string
	/** On a single contact: who they are on each channel they wrote on. */
	identities?: ContactIdentityJson[]
	/** On a single contact: when they opted out of campaigns (an opt-out word); null while they receive them. */
	optedOutAt?: string | null
	/** On a single contact: the contacts whose e-mail is the one this contact claims, which an agent may merge it into. */
	possibleMatches?: ContactMatchJson[]
}

export type ContactMatchJson = { id: string; name: string }

/**
 * A contact's identity on a channel. `externalId` is the provider's id of them (a WhatsApp number,
 * a Telegram chat id, a Meta PSID); null for a link visitor, whose id is the hash of their cookie.
 */
export type ContactIdentityJson = { channelId: string; channelKind: ChannelKind; channelName: string; externalId: string | null; since: string }

type ContactRow = Omit<Contact, 'nameKey' | 'searchText' | 'optedOutAt'>

export const contactEmailConstraint = 'contacts_workspace_email_key'
export const contactLabelConstraint = 'contact_labels_label_fk'

export function contactJson(contact: ContactRow, labels: LabelSummary[]): ContactJson {
	return {
		id: contact.id,
		name: contact.name,
		email: contact.email,
		unverifiedEmail: contact.unverifiedEmail,
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
	'contacts.unverifiedEmail',
	'contacts.phone',
	'contacts.company',
	'contacts.notes',
	'contacts.attributes',
	'contacts.avatarColor',
	'contacts.lastActivityAt',
	'contacts.createdAt',
	'contacts.updatedAt',
] as const

/** A contact's labels by title, as JSON, read with the contact instead of in a query of their own. */
const labelsOfContact = sql<LabelSummary[]>`(
	select coalesce(json_agg(json_build_object('id', labels.id, 'title', labels.title, 'color', labels.color) order by labels.title), '[]'::json)
	from contact_labels join labels on labels.id = contact_labels.label_id where contact_labels.contact_id = contacts.id
)`

export type ContactWithLabels = ContactRow & { labels: LabelSummary[] }

export async function findContact(db: Executor, workspaceId: string, contactId: string): Promise<ContactJson | undefined> {
	return (await contactsById(db, workspaceId, [contactId])).get(contactId)
}

/** The workspace's contacts of `ids` as `findContact` answers each, by id: three statements whatever their number. */
export async function contactsById(db: Executor, workspaceId: string, ids: string[]): Promise<Map<string, ContactJson>> {
	if (ids.length === 0) return new Map()
	const [contacts, identities] = await Promise.all([
		db
			.selectFrom('contacts')
			.select(contactColumns)
			.select(['contacts.optedOutAt', labelsOfContact.as('labels')])
			.where('workspaceId', '=', workspaceId)
			.where('id', 'in', ids)
			.execute(),
		identitiesOf(db, workspaceId, ids),
	])
	const claimed = [...new Set(contacts.flatMap((contact) => contact.unverifiedEmail ?? []))]
	const owners = await contactsWithEmails(db, workspaceId, claimed)
	return new Map(
		contacts.map((contact) => [
			contact.id,
			{
				...contactJson(contact, contact.labels),
				identities: identities.get(contact.id) ?? [],
				optedOutAt: contact.optedOutAt?.toISOString() ?? null,
				possibleMatches: owners.filter((owner) => owner.email === contact.unverifiedEmail).map(({ id, name }) => ({ id, name })),
			},
		]),
	)
}

/** The contacts whose own e-mail is one of these (one each at most: e-mails are unique in a workspace). */
async function contactsWithEmails(db: Executor, workspaceId: string, emails: string[]) {
	if (emails.length === 0) return []
	return db.selectFrom('contacts').select(['id', 'name', 'email']).where('workspaceId', '=', workspaceId).where('email', 'in', emails).execute()
}

/** Each contact's identities, oldest first, by contact id. */
async function identitiesOf(db: Executor, workspaceId: string, contactIds: string[]): Promise<Map<string, ContactIdentityJson[]>> {
	const rows = await db
		.selectFrom('contactIdentities')
		.innerJoin('channels', 'channels.id', 'contactIdentities.channelId')
		.select([
			'contactIdentities.contactId',
			'contactIdentities.channelId',
			'channels.kind',
			'channels.name',
			'contactIdentities.externalId',
			'contactIdentities.createdAt',
		])
		.where('contactIdentities.workspaceId', '=', workspaceId)
		.where('contactIdentities.contactId', 'in', contactIds)
		.orderBy('contactIdentities.createdAt')
		.execute()
	const byContact = new Map<string, ContactIdentityJson[]>()
	for (const row of rows) {
		const identities = byContact.get(row.contactId) ?? []
		identities.push({
			channelId: row.channelId,
			channelKind: row.kind,
			channelName: row.name,
			externalId: row.kind === 'link' ? null : row.externalId,
			since: row.createdAt.toISOString(),
		})
		byContact.set(row.contactId, identities)
	}
	return byContact
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

/**
 * The filter's conditions on a table with a contact's id and folded search text: every search
 * word (both sides folded by the same function: case, accents, Arabic marks), the label.
 */
function conditions(id: RawBuilder<unknown>, searchText: RawBuilder<unknown>, filter: ContactFilter): Array<RawBuilder<boolean>> {
	const words = (filter.search ? searchTerms(filter.search) : []).map((term) => sql<boolean>`${searchText} like crm_fold(${containsPattern(term)})`)
	const label = filter.label
		? [sql<boolean>`exists (select 1 from contact_labels where contact_labels.contact_id = ${id} and contact_labels.label_id = ${filter.label})`]
		: []
	return [...words, ...label]
}

/** The workspace's contacts that match, read from `contacts` (to walk a sort index). */
function filtered<Output>(query: SelectQueryBuilder<Database, 'contacts', Output>, workspaceId: string, filter: ContactFilter) {
	return conditions(sql.ref('contacts.id'), sql.ref('contacts.search_text'), filter).reduce(
		(result, condition) => result.where(condition),
		query.where('contacts.workspaceId', '=', workspaceId),
	)
}

/** The workspace's contacts that match a search, read through the trigram index of `contact_search` (migration 0008). */
function searched(db: Executor, workspaceId: string, filter: ContactFilter) {
	const query = db.selectFrom('contactSearch').where('contactSearch.workspaceId', '=', workspaceId)
	return conditions(sql.ref('contact_search.contact_id'), sql.ref('contact_search.search_text'), filter).reduce(
		(result, condition) => result.where(condition),
		query,
	)
}

// The sort key also travels in the cursor, written by PostgreSQL so that it compares exactly.
const sortKeys = {
	name: { column: 'name_key', text: sql<string>`contacts.name_key`, type: sql`text` },
	created: {
		column: 'created_at',
		text: sql<string>`to_char(contacts.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
		type: sql`timestamptz`,
	},
	activity: {
		column: 'last_activity_at',
		text: sql<string>`to_char(contacts.last_activity_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
		type: sql`timestamptz`,
	},
} as const

export type ContactPageQuery = ContactFilter & { sort: ContactSort; direction: Direction; after?: Cursor; limit: number; narrow: boolean }

/**
 * One page in keyset order, (sort key, id) both ascending or both descending, starting after
 * `after`, each contact with its labels. Reads `limit + 1` rows to know whether another page follows.
 *
 * `narrow` is for a search: all its matches are read through the trigram index and sorted, and
 * counted in the same pass (`matches`). Otherwise PostgreSQL walks the sort index and filters,
 * which is quick when matches are spread out but slow when they sort late (every Arabic name
 * comes after the Latin ones).
 */
export async function contactPage(
	db: Executor,
	workspaceId: string,
	query: ContactPageQuery,
): Promise<{ contacts: ContactWithLabels[]; next?: Cursor; matches?: number }> {
	const key = sortKeys[query.sort]
	const column = sql.ref(`contacts.${key.column}`)
	const { direction, after } = query
	const keyset = (value: RawBuilder<unknown>, id: RawBuilder<unknown>, cursor: Cursor) =>
		sql<boolean>`(${value}, ${id}) ${sql.raw(direction === 'desc' ? '<' : '>')} (cast(${cursor.key} as ${key.type}), cast(${cursor.id} as uuid))`

	let rows: Array<ContactWithLabels & { sortKey: string }>
	let matches: number | undefined
	if (query.narrow) {
		// The window function needs every match, so PostgreSQL reads them all (bitmap) rather than walking the sort index;
		// it sorts and counts only (id, sort key), and the page's rows are read afterwards by id.
		const found = searched(db, workspaceId, query).select([
			'contactSearch.contactId as id',
			sql.ref(`contact_search.${key.column}`).as('sortValue'),
			sql<number>`count(*) over ()`.as('total'),
		])
		let page = db.selectFrom(found.as('found')).selectAll()
		if (after) page = page.where(keyset(sql.ref('found.sortValue'), sql.ref('found.id'), after))
		const ordered = page
			.orderBy(sql.ref('found.sortValue'), direction)
			.orderBy('found.id', direction)
			.limit(query.limit + 1)
		const joined = await db
			.selectFrom(ordered.as('page'))
			.innerJoin('contacts', 'contacts.id', 'page.id')
			.select(contactColumns)
			.select([key.text.as('sortKey'), 'page.total', labelsOfContact.as('labels')])
			.orderBy(sql.ref('page.sortValue'), direction)
			.orderBy('page.id', direction)
			.execute()
		rows = joined.map(({ total: _, ...row }) => row)
		// Past the last match there is no row to carry the count.
		matches = joined[0]?.total ?? (after ? undefined : 0)
	} else {
		let page = filtered(db.selectFrom('contacts'), workspaceId, query)
			.select(contactColumns)
			.select([key.text.as('sortKey'), labelsOfContact.as('labels')])
		if (after) page = page.where(keyset(column, sql.ref('contacts.id'), after))
		rows = await page
			.orderBy(column, direction)
			.orderBy('contacts.id', direction)
			.limit(query.limit + 1)
			.execute()
	}
	const contacts = rows.slice(0, query.limit).map(({ sortKey: _, ...contact }): ContactWithLabels => contact)
	const last = rows[query.limit - 1]
	const next: Cursor | undefined =
		rows.length > query.limit && last ? { sort: query.sort, direction, key: last.sortKey, id: last.id, narrow: query.narrow } : undefined
	return { contacts, next, matches }
}

/** The exact number of matches: a search's through its trigram index, a label's by walking its contacts. */
export async function countContacts(db: Executor, workspaceId: string, filter: ContactFilter): Promise<number> {
	const total = sql<number>`count(*)::int`.as('total')
	const row = filter.search
		? await searched(db, workspaceId, filter).select(total).executeTakeFirstOrThrow()
		: await filtered(db.selectFrom('contacts'), workspaceId, filter).select(total).executeTakeFirstOrThrow()
	return row.total
}

/**
 * A search with more matches than this is read by walking the sort index (see `contactPage`),
 * and its count says "more than" this many unless asked for the exact number.
 */
export const countCap = 20_000

/** How an export reads a filter's matches: all of them for a search with few. */
export async function narrowFor(db: Executor, workspaceId: string, filter: ContactFilter): Promise<boolean> {
	return Boolean(filter.search) && !(await countMatches(db, workspaceId, filter)).capped
}

/** How many contacts a list shows; `capped`: more than `total`, which is then `countCap`. */
export type ContactTotal = { total: number; capped: boolean }

const capped = (total: number): ContactTotal => (total > countCap ? { total: countCap, capped: true } : { total, capped: false })

/**
 * A list's count without counting the workspace: the whole list and a label alone read the
 * numbers the triggers keep (migration 0007); a search counts up to `countCap`, or all its
 * matches when `exact`.
 */
export async function countFor(db: Executor, workspace: { id: string; contactCount: number }, filter: ContactFilter, exact = false): Promise<ContactTotal> {
	if (!filter.search && !filter.label) return { total: workspace.contactCount, capped: false }
	if (!filter.search && filter.label) {
		const label = await db.selectFrom('labels').select('contactCount').where('workspaceId', '=', workspace.id).where('id', '=', filter.label).executeTakeFirst()
		return { total: label?.contactCount ?? 0, capped: false }
	}
	return countMatches(db, workspace.id, filter, exact)
}

/** A search's matches, counted up to `countCap + 1` unless `exact`. */
async function countMatches(db: Executor, workspaceId: string, filter: ContactFilter, exact = false): Promise<ContactTotal> {
	if (exact) return { total: await countContacts(db, workspaceId, filter), capped: false }
	const matches = searched(db, workspaceId, filter)
		.select(sql`1`.as('one'))
		.limit(countCap + 1)
	const { total } = await db
		.selectFrom(matches.as('matches'))
		.select((eb) => eb.fn.countAll<number>().as('total'))
		.executeTakeFirstOrThrow()
	return capped(total)
}

/** A list page as the API answers it. `totalCapped`: there are more than `total` matches (then `countCap`); `?count=exact` counts them all. */
export type ContactPageJson = { contacts: ContactJson[]; nextCursor: string | null; total: number; totalCapped: boolean }

/**
 * A page of the list with its count. A search's first page reads and counts all its matches, and
 * decides how its next pages read it (the cursor carries the choice): one with more than
 * `countCap` matches walks the sort index, and is known to have more than `countCap`.
 */
export async function listContacts(
	db: Executor,
	workspace: { id: string; contactCount: number },
	query: Omit<ContactPageQuery, 'narrow'> & { count?: 'exact' },
) {
	const narrow = Boolean(query.search) && (query.after ? query.after.narrow : true)
	const exact = query.count === 'exact'
	const walkedSearch = Boolean(query.search) && !narrow
	const [page, counted] = await Promise.all([
		contactPage(db, workspace.id, { ...query, narrow }),
		narrow || (walkedSearch && !exact) ? undefined : countFor(db, workspace, query, exact),
	])
	let total = counted ?? (walkedSearch ? { total: countCap, capped: true } : undefined)
	if (!total && page.matches !== undefined) total = exact ? { total: page.matches, capped: false } : capped(page.matches)
	// Past the last match of a search there is no row to carry the count.
	total ??= await countFor(db, workspace, query, exact)
	const next = page.next && !query.after ? { ...page.next, narrow: narrow && (page.matches ?? 0) <= countCap } : page.next
	return { contacts: page.contacts, next, total }
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
