import { z } from 'zod'
import { listQuery, paginationQuery } from '#api/http/pagination.ts'
import { contactSorts, decodeCursor, defaultDirection, directions } from './cursor.ts'
import { isSupportedCountry, normalizePhone, type CountryCode } from './phone.ts'

import { contactLimits as limits } from '#common/contacts.ts'

export { limits }

// Forms send an empty field for "none": it is stored as null. Left out, it stays left out (an edit keeps the value).
const optionalText = (maximum: number) =>
	z
		.string()
		.trim()
		.max(maximum)
		.nullable()
		.transform((value) => value || null)
		.optional()

export const contactName = z.string().trim().min(1).max(limits.name)

export const contactEmail = z.preprocess(
	(value) => (typeof value === 'string' && value.trim() === '' ? null : value),
	z.string().trim().toLowerCase().max(limits.email).email().nullish(),
)

export const contactPhone = optionalText(limits.phone)

export const country = z
	.string()
	.trim()
	.toUpperCase()
	.refine((code): code is CountryCode => isSupportedCountry(code), 'contacts:validation.country')
	.transform((code) => code as CountryCode)

const attributes = z
	.record(z.string().trim().min(1).max(limits.attributeKey), z.string().trim().max(limits.attributeValue))
	.refine((value) => Object.keys(value).length <= limits.attributes, 'contacts:validation.tooManyAttributes')

const labelIds = z
	.array(z.string().uuid())
	.max(limits.labels)
	.transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])

const contactFields = {
	email: contactEmail,
	phone: contactPhone,
	// Only reads the phone: a form's empty choice is none.
	country: z.preprocess((value) => (value === '' || value === null ? undefined : value), country.optional()),
	company: optionalText(limits.company),
	notes: optionalText(limits.notes),
	attributes: attributes.optional(),
	labelIds: labelIds.optional(),
}

type WithPhone = { phone?: string | null; country?: CountryCode }

// On the object, so that the country can tell how to read a number without its prefix.
function checkPhone(fallback: CountryCode | undefined) {
	return (body: WithPhone, context: z.RefinementCtx) => {
		const country = body.country ?? fallback
		if (body.phone && !normalizePhone(body.phone, country)) {
			context.addIssue({ code: 'custom', path: ['phone'], message: country ? 'contacts:validation.phone' : 'contacts:validation.phoneInternational' })
		}
	}
}

function withNormalizedPhone(fallback: CountryCode | undefined) {
	return <Body extends WithPhone>({ country, ...body }: Body): Omit<Body, 'country'> =>
		body.phone ? { ...body, phone: normalizePhone(body.phone, country ?? fallback) ?? body.phone } : body
}

const createShape = z.object({ name: contactName, ...contactFields })
const updateShape = z.object({ name: contactName.optional(), ...contactFields })

/** A phone without its international prefix is read as one of `country`, else of the workspace's country (`fallback`), and kept in E.164. */
export const createContactBody = (fallback?: CountryCode) => createShape.superRefine(checkPhone(fallback)).transform(withNormalizedPhone(fallback))

/** Fields left out stay as they are; `null` or `''` empties one; `attributes` and `labelIds` replace the whole set. */
export const updateContactBody = (fallback?: CountryCode) => updateShape.superRefine(checkPhone(fallback)).transform(withNormalizedPhone(fallback))

export type NewContactInput = z.output<ReturnType<typeof createContactBody>>
export type ContactInput = z.output<ReturnType<typeof updateContactBody>>

export const contactParams = z.object({ id: z.string().uuid(), contactId: z.string().uuid() })

/** `POST …/contacts/{contactId}/merge`: the contact of the path goes into `into`, which stays. */
export const mergeContactBody = z.object({ into: z.string().uuid() }).strict()

// A query parameter left empty by a GET form is one not given.
const optionalParameter = <Schema extends z.ZodTypeAny>(schema: Schema) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())

/** `?cursor&limit&sort&direction&search&label&count=exact`; the direction defaults to A→Z for names and newest first for dates. */
export const listContactsQuery = z
	.object({
		cursor: optionalParameter(z.string().max(2000)),
		limit: paginationQuery.shape.limit.innerType().transform((limit) => limit ?? 25),
		sort: optionalParameter(z.enum(contactSorts)).transform((sort) => sort ?? 'name'),
		direction: optionalParameter(z.enum(directions)),
		search: listQuery.shape.search,
		label: optionalParameter(z.string().uuid()),
		// A search counts its matches up to `countCap` unless asked for all of them.
		count: optionalParameter(z.enum(['exact'])),
	})
	.transform((query, context) => {
		const direction = query.direction ?? defaultDirection(query.sort)
		if (query.cursor === undefined) return { ...query, direction, after: undefined }
		const after = decodeCursor(query.cursor)
		// A cursor of another sort would start the page at a meaningless place.
		if (!after || after.sort !== query.sort || after.direction !== direction) {
			context.addIssue({ code: 'custom', path: ['cursor'], message: 'contacts:validation.cursor' })
			return z.NEVER
		}
		return { ...query, direction, after }
	})

export type ListContactsQuery = z.output<typeof listContactsQuery>

/** The same filter and order as the list, for an export. */
export const exportContactsQuery = z.object({
	sort: listContactsQuery.innerType().shape.sort,
	direction: listContactsQuery.innerType().shape.direction,
	search: listQuery.shape.search,
	label: optionalParameter(z.string().uuid()),
})

export const importContactsQuery = z.object({ country: optionalParameter(country) })

export const bulkActions = ['label', 'unlabel', 'delete'] as const

export const bulkBody = z
	.object({
		action: z.enum(bulkActions),
		contactIds: z.array(z.string().uuid()).min(1).max(1000),
		labelId: z.string().uuid().optional(),
	})
	.superRefine((body, context) => {
		if (body.action !== 'delete' && !body.labelId) context.addIssue({ code: 'custom', path: ['labelId'], message: 'validation.required' })
	})

export type BulkBody = z.output<typeof bulkBody>
