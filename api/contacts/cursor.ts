import { z } from 'zod'
import { decodeOpaque, encodeOpaque } from '#api/http/opaque.ts'

export const contactSorts = ['name', 'created', 'activity'] as const
export type ContactSort = (typeof contactSorts)[number]
export const directions = ['asc', 'desc'] as const
export type Direction = (typeof directions)[number]

/** The direction a sort takes unless told: names A→Z, dates newest first. */
export function defaultDirection(sort: ContactSort): Direction {
	return sort === 'name' ? 'asc' : 'desc'
}

/** Where a page ends: the sort it belongs to, the last row's sort key (as PostgreSQL wrote it) and id, and how the list is read. */
export type Cursor = { sort: ContactSort; direction: Direction; key: string; id: string; narrow: boolean }

// Timestamps travel with their microseconds, as PostgreSQL keeps them: a millisecond Date would repeat or skip rows.
const timestampKey = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

const encoded = z.object({
	s: z.enum(contactSorts),
	d: z.enum(directions),
	k: z.string().max(1000),
	i: z.string().uuid(),
	n: z.literal(1).optional(),
})

export function encodeCursor(cursor: Cursor): string {
	const narrow = cursor.narrow ? { n: 1 } : {}
	return encodeOpaque({ s: cursor.sort, d: cursor.direction, k: cursor.key, i: cursor.id, ...narrow })
}

/** The cursor behind an opaque `?cursor=`, or undefined when it is not one of ours. */
export function decodeCursor(text: string): Cursor | undefined {
	const value = decodeOpaque(text, encoded)
	if (!value) return undefined
	const { s: sort, d: direction, k: key, i: id, n: narrow } = value
	if (sort !== 'name' && !timestampKey.test(key)) return undefined
	return { sort, direction, key, id: id.toLowerCase(), narrow: narrow === 1 }
}
