import { z } from 'zod'
import { decodeOpaque, encodeOpaque } from '#api/http/opaque.ts'

/** The list's orders, all newest (or most urgent) first: last activity, creation (the number follows it), priority then last activity. */
export const conversationSorts = ['activity', 'created', 'priority'] as const
export type ConversationSort = (typeof conversationSorts)[number]

/**
 * Where a page ends: its sort, the last row's sort key and id. The key is the last activity as
 * PostgreSQL wrote it (microseconds: a millisecond Date would repeat or skip rows), the number,
 * or `priority|last activity`.
 */
export type ConversationCursor = { sort: ConversationSort; key: string; id: string }

const timestamp = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z`
const keyPatterns: Record<ConversationSort, RegExp> = {
	activity: new RegExp(`^${timestamp}$`),
	created: /^\d{1,10}$/,
	priority: new RegExp(`^[0-4]\\|${timestamp}$`),
}

const encoded = z.object({ s: z.enum(conversationSorts), k: z.string().max(100), i: z.string().uuid() })

export function encodeCursor(cursor: ConversationCursor): string {
	return encodeOpaque({ s: cursor.sort, k: cursor.key, i: cursor.id })
}

/** The cursor behind an opaque `?after=`, or undefined when it is not one of ours. */
export function decodeCursor(text: string): ConversationCursor | undefined {
	const value = decodeOpaque(text, encoded)
	if (!value || !keyPatterns[value.s].test(value.k)) return undefined
	return { sort: value.s, key: value.k, id: value.i.toLowerCase() }
}
