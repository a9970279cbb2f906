import { z } from 'zod'
import { type ApiDocs } from '#api/http/openapi.ts'

/** `/v1/openapi.json` and `/v1/docs` (router.ts): this document, and the page made of it. */
export function documentDocs(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/openapi.json',
		summary: 'This document (OpenAPI 3.0)',
		caller: 'anyone',
		responses: { 200: { description: 'The OpenAPI document.', schema: z.object({ openapi: z.string() }).passthrough() } },
	})
	docs.add({
		method: 'get',
		path: '/docs',
		summary: 'This reference as a web page (in English)',
		caller: 'anyone',
		responses: { 200: { description: 'The page.', type: 'text/html' } },
	})
}
