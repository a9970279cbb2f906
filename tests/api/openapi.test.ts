import http from 'node:http'
import { type OpenAPIObject, type OperationObject, type ParameterObject, type ReferenceObject, type ResponseObject } from 'openapi3-ts/oas30'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApi } from '#api/index.ts'
import { listRoutes, openApiPath } from '#api/http/routes.ts'
import { startApi, testDb, type TestApi } from './harness.ts'

let api: TestApi
let document: OpenAPIObject
beforeAll(async () => {
	api = await startApi()
	document = (await api.request('GET', '/v1/openapi.json')).body as OpenAPIObject
})
afterAll(() => api.close())

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Every operation of the document as `METHOD /path`, with the operation itself. */
function operations(of: OpenAPIObject): Array<{ key: string; path: string; method: string; operation: OperationObject }> {
	return Object.entries(of.paths ?? {}).flatMap(([path, item]) =>
		methods.flatMap((method) => {
			const operation = (item as Record<string, OperationObject | undefined>)[method]
			return operation ? [{ key: `${method.toUpperCase()} ${path}`, path, method, operation }] : []
		}),
	)
}

describe('GET /v1/openapi.json', () => {
	test('documents every route of the /v1 router, and no route it does not have', () => {
		const router = createApi({ db: testDb(), config: api.config, logger: pino({ level: 'silent' }) })
		const routes = listRoutes(router).map((route) => `${route.method} ${openApiPath(route.path)}`)
		// The walk itself found the API: a broken walker would make this test pass on nothing.
		expect(routes.length).toBeGreaterThan(80)
		expect(routes).toContain('PATCH /workspaces/{id}/labels/{labelId}')
		expect(routes).not.toContain('ALL /')

		const documented = operations(document).map((operation) => operation.key)
		expect(
			routes.filter((route) => !documented.includes(route)),
			'routes missing from the document',
		).toEqual([])
		expect(
			documented.filter((operation) => !routes.includes(operation)),
			'documented operations no route answers',
		).toEqual([])
		expect(new Set(routes).size).toBe(routes.length)
	})

	test('is a well-formed OpenAPI 3.0 document', () => {
		expect(document.openapi).toMatch(/^3\.0\.\d+$/)
		expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) })
		expect(document.servers).toEqual([{ url: '/v1' }])
		const schemes = Object.keys(document.components?.securitySchemes ?? {})
		expect(schemes.sort()).toEqual(['bearerAuth', 'visitorToken'])

		for (const { key, path, method, operation } of operations(document)) {
			expect(path, key).toMatch(/^\/[\w\-./{}]*$/)
			expect(operation.summary, key).toBeTruthy()
			expect(operation.tags?.length, key).toBe(1)
			// Every operation says what it answers, each answer with a description.
			const responses = Object.entries(operation.responses as Record<string, ResponseObject>)
			expect(responses.length, key).toBeGreaterThan(0)
			expect(
				responses.some(([status]) => /^2\d\d$/.test(status)),
				`${key} has a success answer`,
			).toBe(true)
			for (const [status, response] of responses) {
				expect(status, key).toMatch(/^[1-5]\d\d$/)
				expect(response.description, `${key} ${status}`).toBeTruthy()
				// Errors all have the one shape errors.ts answers.
				if (Number(status) >= 400)
					expect(response.content?.['application/json']?.schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' })
			}
			// Path parameters and the path agree, and each is required.
			const parameters = (operation.parameters ?? []) as ParameterObject[]
			const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1])
			expect(
				parameters
					.filter((parameter) => parameter.in === 'path')
					.map((parameter) => parameter.name)
					.sort(),
				key,
			).toEqual(inPath.sort())
			for (const parameter of parameters) {
				expect(['path', 'query', 'header', 'cookie'], key).toContain(parameter.in)
				if (parameter.in === 'path') expect(parameter.required, `${key} ${parameter.name}`).toBe(true)
				expect(parameter.schema, `${key} ${parameter.name}`).toBeTruthy()
			}
			if (operation.requestBody) expect(method, `${key} has a body`).not.toBe('get')
			// Security names only schemes that exist; a public operation says so with an empty list.
			expect(operation.security, key).toBeDefined()
			for (const requirement of operation.security ?? []) for (const name of Object.keys(requirement)) expect(schemes, key).toContain(name)
		}

		// Every reference resolves.
		const references = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? []
		for (const reference of new Set(references)) {
			const target = (JSON.parse(`{${reference}}`) as ReferenceObject).$ref
			expect(target).toMatch(/^#\/components\//)
			const [, , kind, name] = target.split('/')
			expect((document.components as Record<string, Record<string, unknown>>)[kind!]?.[name!], target).toBeDefined()
		}
	})

	test('describes requests from the schemas the routes validate with', async () => {
		const register = document.paths['/auth/register']!.post!
		expect(register.security).toEqual([])
		const body = (register.requestBody as { content: Record<string, { schema: { required?: string[]; properties?: object } }> }).content['application/json']!
			.schema
		// The fields the route refuses an empty body for are the ones the document requires.
		const refused = await api.request('POST', '/v1/auth/register', { body: {} })
		expect(refused.status).toBe(400)
		const fields = Object.keys((refused.body as { details: { fields: Record<string, string[]> } }).details.fields)
		expect(fields.sort()).toEqual([...(body.required ?? [])].sort())

		const labels = document.paths['/workspaces/{id}/labels/{labelId}']!.patch!
		expect(labels.security).toEqual([{ bearerAuth: [] }])
		expect(Object.keys(labels.responses as object).sort()).toEqual(['200', '400', '401', '403', '404', '409'])
		const visitor = document.paths['/link/{slug}/messages']!.post!
		expect(visitor.security).toEqual([{ visitorToken: [] }])
		const query = (document.paths['/workspaces/{id}/contacts']!.get!.parameters as ParameterObject[]).filter((parameter) => parameter.in === 'query')
		expect(query.map((parameter) => parameter.name).sort()).toEqual(['count', 'cursor', 'direction', 'label', 'limit', 'search', 'sort'])
		expect(document.components?.schemas?.ErrorBody).toMatchObject({ type: 'object', required: expect.arrayContaining(['message', 'statusCode']) })
	})

	test('is public and cacheable', async () => {
		const response = await fetch(`${api.url}/v1/openapi.json`, { headers: { 'Accept-Language': 'fr' } })
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toMatch(/^application\/json/)
		expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
		const etag = response.headers.get('etag')
		expect(etag).toBeTruthy()
		// Over node:http: fetch makes a conditional request uncacheable (`Cache-Control: no-cache`), which a server must answer in full.
		const again = await new Promise<number | undefined>((resolve, reject) => {
			http.get(`${api.url}/v1/openapi.json`, { headers: { 'If-None-Match': etag! } }, (answer) => resolve(answer.resume().statusCode)).on('error', reject)
		})
		expect(again).toBe(304)
	})
})

describe('GET /v1/docs', () => {
	test('a plain HTML reference of every operation, public, cacheable, with no script', async () => {
		const response = await fetch(`${api.url}/v1/docs`)
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toMatch(/^text\/html/)
		expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
		expect(response.headers.get('content-language')).toBe('en')
		const policy = response.headers.get('content-security-policy') ?? ''
		expect(policy).toContain("default-src 'none'")
		expect(policy).not.toContain('script-src')
		const html = await response.text()
		expect(html).not.toMatch(/<script|\son\w+=|https?:\/\//i)
		// The one style sheet is the one the policy's hash allows.
		const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''
		const { createHash } = await import('node:crypto')
		expect(policy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`)

		for (const tag of new Set(operations(document).map((operation) => operation.operation.tags![0]!)))
			expect(html).toContain(`<h2>${tag.replace('&', '&amp;')}</h2>`)
		for (const { path, method, operation } of operations(document)) {
			expect(html).toContain(`<span class="method">${method}</span> <code>/v1${path}</code>`)
			expect(html).toContain(
				operation
					.summary!.replace(/&/g, '&amp;')
					.replace(/'/g, '&#39;')
					.replace(/`([^`]+)`/g, '<code>$1</code>'),
			)
		}
		// Parameters, bodies and answers are shown: the label's colour pattern, a 409's meaning.
		expect(html).toContain('<code>color</code>')
		expect(html).toContain('In conflict with the current state.')
		expect(html).toContain('href="#schema-ErrorBody"')
		// Every link within the page leads somewhere on it.
		const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]))
		for (const [, target] of html.matchAll(/href="#([^"]+)"/g)) expect(ids, `#${target}`).toContain(target)
		expect(ids.size).toBe([...html.matchAll(/\sid="/g)].length)
	})
})
