import { type Request } from 'express'

/**
 * A request whose body `express.raw` kept as bytes, as a signature check reads it: the bytes as
 * sent, and the headers by their lower-case names, a repeated one joined as Node joins them.
 */
export function rawRequest(req: Request): { rawBody: Buffer; headers: Record<string, string | undefined> } {
	return {
		rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
		headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
	}
}
