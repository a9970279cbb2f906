import { z } from 'zod'

/** The largest page a list endpoint answers. */
export const maximumLimit = 100

/** The last page number taken: beyond it the offset would overflow PostgreSQL's bigint (a 500), and no list is that long. */
export const maximumPage = 1_000_000

// Query strings arrive as text; an empty parameter means "not given", like the web client drops it.
const queryInteger = (schema: z.ZodNumber) => z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().pipe(schema).optional())

/** `?page&limit`: page 1..1 000 000 (default 1), limit 1..100 (default 10); anything else is a translated 400. */
export const paginationQuery = z.object({
	page: queryInteger(z.number().int().min(1).max(maximumPage)).transform((page) => page ?? 1),
	limit: queryInteger(z.number().int().min(1).max(maximumLimit)).transform((limit) => limit ?? 10),
})

/** `?page&limit&search`: a list query; blank search means none. */
export const listQuery = paginationQuery.extend({
	search: z
		.string()
		.trim()
		.max(100)
		.optional()
		.transform((search) => search || undefined),
})

export type Pagination = z.output<typeof paginationQuery>

/** Rows to skip for a page. */
export function offsetOf({ page, limit }: Pagination): number {
	return (page - 1) * limit
}

/** An ILIKE pattern matching `text` anywhere, with `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}
