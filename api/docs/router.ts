import { Router, type Response } from 'express'
import { type OpenAPIObject } from 'openapi3-ts/oas30'
import { apiDocument } from './document.ts'
import { docsPage, docsStyleHash } from './html.ts'

/** The API's version, as its path says (`/v1`). */
const version = '1'

// The same for every caller until the next deploy: an hour in any cache, then checked again by ETag.
function cacheable(res: Response) {
	res.setHeader('Cache-Control', 'public, max-age=3600')
	// Written in English whatever Accept-Language says.
	res.setHeader('Content-Language', 'en')
}

/** `/v1/openapi.json` and `/v1/docs`: the API's contract and its reference page, public, made once per process. */
export function docsRouter(): Router {
	const router = Router()
	let document: OpenAPIObject | undefined
	let page: string | undefined
	const contract = () => (document ??= apiDocument(version))

	router.get('/openapi.json', (_req, res) => {
		cacheable(res)
		res.json(contract())
	})

	router.get('/docs', (_req, res) => {
		cacheable(res)
		// Stricter than the site's own policy: no script at all, and the one style sheet by its hash.
		res.setHeader('Content-Security-Policy', `default-src 'none'; style-src '${docsStyleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
		res.type('html').send((page ??= docsPage(contract())))
	})

	return router
}
