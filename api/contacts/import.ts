import crypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { type TFunction } from 'i18next'
import { z } from 'zod'
import { type Database } from '#api/db/schema.ts'
import { issueMessage } from '#api/http/validate.ts'
import { labelTitle } from '#api/labels/schemas.ts'
import { randomLogoColor } from '#api/workspaces/queries.ts'
import { labelSeparator, type CsvRecord } from './csv.ts'
import { normalizePhone, type CountryCode } from './phone.ts'
import { contactEmailConstraint } from './queries.ts'
import { contactEmail, limits } from './schemas.ts'

type Executor = Kysely<Database>

export type Rejection = { row: number; field?: string; reason: string }
export type ImportResult = { created: number; updated: number; rejected: Rejection[] }

/** A row ready to apply; a field left undefined was empty in the file and changes nothing. */
type ImportRow = { row: number; name?: string; email?: string; phone?: string; company?: string; notes?: string; labels: string[] }

type Options = { workspaceId: string; t: TFunction<'api'>; country?: CountryCode; createLabels: boolean; batchSize?: number }

// Rows are applied in batches, each one transaction: one row is never half-applied, and 50 000 rows take a few round trips per thousand.
const defaultBatchSize = 1000

const optionalCell = (maximum: number) =>
	z
		.string()
		.max(maximum)
		.optional()
		.transform((value) => value || undefined)

const rowSchema = z.object({
	name: optionalCell(limits.name),
	email: contactEmail.transform((value) => value ?? undefined),
	phone: optionalCell(limits.phone),
	company: optionalCell(limits.company),
	notes: optionalCell(limits.notes),
	labels: z.string().optional(),
})

function rejection(row: number, field: string | undefined, reason: string): Rejection {
	return field ? { row, field, reason } : { row, reason }
}

/** Checks and normalises one record like the contact form would, or says why not. */
function readRow(record: CsvRecord, options: Options): ImportRow | Rejection {
	const { t } = options
	if (record.extraFields) return rejection(record.row, undefined, t('contacts:import.extraFields'))
	const parsed = rowSchema.safeParse(record.cells)
	if (!parsed.success) {
		const issue = parsed.error.issues[0]
		return rejection(record.row, issue ? String(issue.path[0]) : undefined, issue ? issueMessage(t, issue) : t('validation.invalid'))
	}
	const { labels: labelCell, ...cells } = parsed.data
	let phone: string | undefined
	if (cells.phone) {
		phone = normalizePhone(cells.phone, options.country)
		if (!phone) return rejection(record.row, 'phone', t(options.country ? 'contacts:validation.phone' : 'contacts:validation.phoneInternational'))
	}
	const labels = new Map<string, string>()
	for (const title of (labelCell ?? '')
		.split(labelSeparator)
		.map((part) => part.trim())
		.filter(Boolean)) {
		if (!labelTitle.safeParse(title).success) return rejection(record.row, 'labels', t('contacts:import.invalidLabel', { title }))
		labels.set(title.toLowerCase(), title)
	}
	return { row: record.row, ...cells, phone, labels: [...labels.values()] }
}

type Outcome = { created: number; updated: number; rejected: Rejection[] }

/** Label ids by lower-cased title; missing titles are created first when `create`. */
async function resolveLabels(trx: Executor, workspaceId: string, titles: string[], create: boolean): Promise<Map<string, string>> {
	if (titles.length === 0) return new Map()
	const find = () => trx.selectFrom('labels').select(['id', 'title']).where('workspaceId', '=', workspaceId).where('title', 'in', titles).execute()
	let found = await find()
	if (create && found.length < titles.length) {
		const known = new Set(found.map((label) => label.title.toLowerCase()))
		const missing = titles.filter((title) => !known.has(title.toLowerCase()))
		await trx
			.insertInto('labels')
			.values(missing.map((title) => ({ workspaceId, title, color: randomLogoColor() })))
			.onConflict((oc) => oc.columns(['workspaceId', 'title']).doNothing())
			.execute()
		found = await find()
	}
	return new Map(found.map((label) => [label.title.toLowerCase(), label.id]))
}

type Fields = { name?: string; email?: string; phone?: string; company?: string; notes?: string }

function definedFields(row: ImportRow): Fields {
	const fields: Fields = {}
	for (const key of ['name', 'email', 'phone', 'company', 'notes'] as const) {
		if (row[key] !== undefined) fields[key] = row[key]
	}
	return fields
}

/**
 * Applies rows in one transaction. A row updates the contact with its e-mail, else the one contact
 * with its phone (earlier rows of the file included), else creates one.
 */
function applyBatch(db: Executor, rows: ImportRow[], options: Options): Promise<Outcome> {
	const { workspaceId, t } = options
	return db.transaction().execute(async (trx) => {
		const outcome: Outcome = { created: 0, updated: 0, rejected: [] }
		const titles = [...new Map(rows.flatMap((row) => row.labels).map((title) => [title.toLowerCase(), title])).values()]
		const labelIds = await resolveLabels(trx, workspaceId, titles, options.createLabels)

		const emails = rows.flatMap((row) => (row.email ? [row.email] : []))
		const phones = rows.flatMap((row) => (row.phone ? [row.phone] : []))
		const existing =
			emails.length + phones.length
				? await trx
						.selectFrom('contacts')
						.select(['id', 'email', 'phone'])
						.where('workspaceId', '=', workspaceId)
						.where(sql<boolean>`(email = any(${emails}::text[]) or phone = any(${phones}::text[]))`)
						.execute()
				: []

		const byEmail = new Map<string, string>()
		const byPhone = new Map<string, Set<string>>()
		const current = new Map<string, { email: string | null; phone: string | null }>()
		const index = (id: string, email: string | null | undefined, phone: string | null | undefined) => {
			const before = current.get(id)
			if (email && before?.email !== email) {
				if (before?.email) byEmail.delete(before.email)
				byEmail.set(email, id)
			}
			if (phone && before?.phone !== phone) {
				if (before?.phone) byPhone.get(before.phone)?.delete(id)
				byPhone.set(phone, (byPhone.get(phone) ?? new Set()).add(id))
			}
			current.set(id, { email: email ?? before?.email ?? null, phone: phone ?? before?.phone ?? null })
		}
		for (const contact of existing) index(contact.id, contact.email, contact.phone)

		const creates = new Map<string, Fields & { name: string }>()
		const updates = new Map<string, Fields>()
		const links: Array<{ workspaceId: string; contactId: string; labelId: string }> = []
		for (const row of rows) {
			const unknown = row.labels.find((title) => !labelIds.has(title.toLowerCase()))
			if (unknown) {
				outcome.rejected.push(rejection(row.row, 'labels', t('contacts:import.unknownLabel', { title: unknown })))
				continue
			}
			let target = row.email ? byEmail.get(row.email) : undefined
			if (!target && row.phone) {
				const sharing = byPhone.get(row.phone)
				if (sharing && sharing.size > 1) {
					outcome.rejected.push(rejection(row.row, 'phone', t('contacts:import.ambiguousPhone')))
					continue
				}
				target = sharing?.values().next().value
			}
			const fields = definedFields(row)
			if (!target) {
				if (!fields.name) {
					outcome.rejected.push(rejection(row.row, 'name', t('validation.required')))
					continue
				}
				target = crypto.randomUUID()
				creates.set(target, { ...fields, name: fields.name })
				outcome.created += 1
			} else {
				const pending = creates.get(target) ?? updates.get(target)
				if (pending) Object.assign(pending, fields)
				else updates.set(target, fields)
				outcome.updated += 1
			}
			index(target, row.email, row.phone)
			for (const title of row.labels) links.push({ workspaceId, contactId: target, labelId: labelIds.get(title.toLowerCase()) ?? '' })
		}

		// Updates first: an e-mail a row moved away from a contact may be the one a new contact takes.
		if (updates.size) {
			const values = [...updates].map(
				([id, fields]) =>
					sql`(${id}::uuid, ${fields.name ?? null}::text, ${fields.email ?? null}::text, ${fields.phone ?? null}::text, ${fields.company ?? null}::text, ${fields.notes ?? null}::text)`,
			)
			await sql`
				update contacts as c set
					name = coalesce(v.name, c.name), email = coalesce(v.email, c.email), phone = coalesce(v.phone, c.phone),
					company = coalesce(v.company, c.company), notes = coalesce(v.notes, c.notes), updated_at = now()
				from (values ${sql.join(values)}) as v(id, name, email, phone, company, notes)
				where c.id = v.id and c.workspace_id = ${workspaceId}
			`.execute(trx)
		}
		if (creates.size) {
			await trx
				.insertInto('contacts')
				.values(
					[...creates].map(([id, fields]) => ({
						id,
						workspaceId,
						name: fields.name,
						email: fields.email ?? null,
						phone: fields.phone ?? null,
						company: fields.company ?? null,
						notes: fields.notes ?? null,
						avatarColor: randomLogoColor(),
					})),
				)
				.execute()
		}
		if (links.length)
			await trx
				.insertInto('contactLabels')
				.values(links)
				.onConflict((oc) => oc.doNothing())
				.execute()
		return outcome
	})
}

// A row that breaks a rule of the database (a duplicate e-mail created meanwhile…) is rejected; anything else is a real failure.
function isDataError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && error.code.startsWith('23')
}

/**
 * Imports parsed CSV records into a workspace. A batch that fails as a whole is applied again row by
 * row, so that only the rows at fault are rejected, each with its reason.
 */
export async function importContacts(db: Executor, records: CsvRecord[], options: Options): Promise<ImportResult> {
	const result: ImportResult = { created: 0, updated: 0, rejected: [] }
	const rows: ImportRow[] = []
	for (const record of records) {
		const read = readRow(record, options)
		if ('reason' in read) result.rejected.push(read)
		else rows.push(read)
	}
	const add = (outcome: Outcome) => {
		result.created += outcome.created
		result.updated += outcome.updated
		result.rejected.push(...outcome.rejected)
	}
	const batchSize = options.batchSize ?? defaultBatchSize
	for (let start = 0; start < rows.length; start += batchSize) {
		const batch = rows.slice(start, start + batchSize)
		try {
			add(await applyBatch(db, batch, options))
		} catch (error) {
			if (!isDataError(error)) throw error
			for (const row of batch) {
				try {
					add(await applyBatch(db, [row], options))
				} catch (rowError) {
					if (!isDataError(rowError)) throw rowError
					const emailTaken = (rowError as { constraint?: string }).constraint === contactEmailConstraint
					result.rejected.push(
						emailTaken
							? rejection(row.row, 'email', options.t('contacts:errors.emailTaken', { email: row.email ?? '' }))
							: rejection(row.row, undefined, options.t('contacts:import.failed')),
					)
				}
			}
		}
	}
	result.rejected.sort((a, b) => a.row - b.row)
	return result
}
