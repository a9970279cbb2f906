import { type RequestHandler } from 'express'

/**
 * A page's action may answer before reading the whole body it was posted (a redirect, a refusal).
 * Node then leaves the unread bytes on the kept-alive connection, and the client's next request on
 * it is reset (tests/e2e/form-fuzz.spec.ts found it). What is left is read and thrown away once the
 * answer is sent, up to `maxBytes`; a body larger than that loses its connection instead.
 */
export function discardUnreadBody(maxBytes: number): RequestHandler {
	return (req, res, next) => {
		res.once('finish', () => {
			if (req.complete || req.destroyed) return
			// Whoever was reading it (Remix's stream of the request) is done with it.
			req.removeAllListeners('data')
			let read = 0
			req.on('data', (chunk: Buffer) => {
				read += chunk.length
				if (read > maxBytes) req.destroy()
			})
			req.resume()
		})
		next()
	}
}
