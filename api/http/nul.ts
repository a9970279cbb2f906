import { type RequestHandler } from 'express'
import { HttpError, notFound } from './errors.ts'

/** Where `value` (a parsed body or query) first holds U+0000 in a string or a key, as a field path; PostgreSQL's text and jsonb cannot store it. */
export function nulField(value: unknown): string | undefined {
	// A stack rather than recursion: a body may nest thousands of levels deep.
	const stack: Array<[unknown, string]> = [[value, '']]
	while (stack.length > 0) {
		const [item, path] = stack.pop()!
		if (typeof item === 'string') {
			if (item.includes('\u0000')) return path || '_'
		} else if (item && typeof item === 'object') {
			for (const [key, child] of Object.entries(item)) {
				const childPath = path ? `${path}.${key}` : key
				if (key.includes('\u0000')) return path || '_'
				stack.push([child, childPath])
			}
		}
	}
	return undefined
}

/**
 * Refuses U+0000 anywhere in a request, which the database would refuse later with a 500: in the
 * body or the query a translated 400 beside the field; in the path a 404 (no id or slug holds one).
 */
export const refuseNulCharacters: RequestHandler = (req, res, next) => {
	if (/%00/.test(req.path)) return notFound(req, res, next)
	for (const source of ['query', 'body'] as const) {
		const field = nulField(req[source])
		if (field !== undefined)
			return next(new HttpError(400, 'errors.validation', { details: { source, fields: { [field]: [req.t('validation.nulCharacter')] } } }))
	}
	next()
}
