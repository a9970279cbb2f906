import { type z } from 'zod'

/** A value as an opaque, URL-safe token (a page cursor). */
export function encodeOpaque(value: object): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url')
}

/** The value behind a token of `encodeOpaque` when `schema` accepts it, else undefined (never throws: tokens come from URLs). */
export function decodeOpaque<Schema extends z.ZodTypeAny>(text: string, schema: Schema): z.output<Schema> | undefined {
	if (!/^[\w-]+$/.test(text)) return undefined
	let value: unknown
	try {
		value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
	} catch {
		return undefined
	}
	const result = schema.safeParse(value)
	return result.success ? result.data : undefined
}
