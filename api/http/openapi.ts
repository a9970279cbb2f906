import { extendZodWithOpenApi, type OpenAPIRegistry, type ResponseConfig, type RouteConfig, type ZodContentObject } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { type ErrorBody } from './errors.ts'
import { openApiPath } from './routes.ts'
import { isWriteMethod, tokenRules } from './token-scopes.ts'

// Once, before any schema is given `.openapi()` metadata; modules that add some import this one first.
extendZodWithOpenApi(z)

/** `errorBody` (errors.ts): the shape of every error the API answers. */
export const errorBodySchema = z
	.object({
		message: z.string().openapi({ description: "What went wrong, in the caller's language (Accept-Language)." }),
		statusCode: z.number().int().openapi({ description: 'The HTTP status, repeated.' }),
		details: z.unknown().openapi({
			description: 'More about the error, or null. A validation error (400) has `{ source: "body" | "query", fields: { [path]: string[] } }`.',
		}),
	})
	.openapi('ErrorBody')

/** True when A and B are the same type, each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

// `errorBody` and its schema cannot drift apart: this fails to compile when they do.
const errorBodyMatches: Same<Required<z.output<typeof errorBodySchema>>, ErrorBody> = true
void errorBodyMatches

/**
 * The schema of a response body, held to the TypeScript type the route builds it as
 * (`answerSchema<LabelJson>()(z.object(…))`): it does not compile unless both say the same.
 */
export function answerSchema<Json>() {
	return <Schema extends z.ZodTypeAny>(schema: Schema & (Same<z.output<Schema>, Json> extends true ? unknown : never)): Schema => schema
}

/** A media type: `application/json`, `text/csv`, `multipart/form-data`… */
type MediaType = string

/** The security schemes operations name: a session's bearer token, or a link visitor's token. */
export const securitySchemes = {
	bearerAuth: {
		type: 'http',
		scheme: 'bearer',
		description:
			'A session token from `POST /v1/auth/login` or `POST /v1/auth/register`, as `Authorization: Bearer <token>`. The web app keeps it in its `crm-token` cookie and sends it so; `/v1` reads no cookie. Or an access token (`crm_pat_…`, `crm_bot_…`), limited by its scopes: each operation says which it needs.',
	},
	visitorToken: {
		type: 'apiKey',
		in: 'header',
		name: 'X-Visitor-Token',
		description:
			"A link page visitor's own long random token (32 to 256 of `A-Z a-z 0-9 _ -`): their browser keeps it in a cookie and the link page sends it in this header.",
	},
} as const

/** Who may call an operation: a signed-in user (the default), a link visitor, or anyone. */
type Caller = 'user' | 'visitor' | 'anyone'

type RequestSchema = NonNullable<NonNullable<RouteConfig['request']>['query']>

/** A success answer: its description, and its body's media type and schema where there is one. */
type Answer = string | { description: string; type?: MediaType; schema?: z.ZodTypeAny }

/**
 * One operation of a router, written beside it: the path as the router writes it (`/:labelId`),
 * and the very schemas its handler validates with.
 */
export type Operation = {
	method: 'get' | 'post' | 'put' | 'patch' | 'delete'
	path: string
	summary: string
	description?: string
	caller?: Caller
	/** Several when the handler parses several (the parameters of each are listed together). */
	params?: RequestSchema | RequestSchema[]
	query?: RequestSchema | RequestSchema[]
	/** The request body's schema (JSON), or one per media type the route takes. */
	body?: z.ZodTypeAny | Partial<Record<MediaType, z.ZodTypeAny>>
	responses: Partial<Record<200 | 201 | 202 | 204, Answer>>
	/** Error statuses beyond those the rest implies: 400 with a body or query, 401 for a user, 404 with path parameters. */
	errors?: number[]
}

/** Where a router's operations go: its mount path under /v1 and the tag they are grouped by. */
export type ApiDocs = { add: (operation: Operation) => void }

const errorDescriptions: Record<number, string> = {
	400: 'Invalid input: `details.fields` says what, field by field.',
	401: 'No live session (`WWW-Authenticate: Bearer`).',
	403: "The caller's role does not allow this.",
	404: 'Not found, or not visible to the caller.',
	409: 'In conflict with the current state.',
	410: 'No longer valid.',
	413: 'The body is too large.',
	415: 'The body is not of an accepted media type.',
	422: 'Understood, but cannot be done in this state.',
	429: 'Too many attempts: wait the seconds `Retry-After` says.',
	502: 'A service the API relies on (mail, a messaging provider) failed.',
}

/** The operations of one router, mounted at `mountPath` (Express's way, `/workspaces/:id/labels`), under `tag`. */
export function apiDocs(registry: OpenAPIRegistry, mountPath: string, tag: string): ApiDocs {
	return {
		add(operation) {
			const path = openApiPath(`${mountPath}${operation.path === '/' ? '' : operation.path}`)
			const caller = operation.caller ?? 'user'
			const named = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1])
			const params = oneSchema(operation.params)
			const query = oneSchema(operation.query)
			const shape = params ? objectShape(params) : {}
			const missing = named.filter((name) => name !== undefined && !(name in shape))
			if (missing.length > 0) throw new Error(`${operation.method.toUpperCase()} ${path}: no schema for the path parameters ${missing.join(', ')}`)

			const errors = new Set(operation.errors ?? [])
			// A visitor's missing or malformed token is a 400, as bad input.
			if (operation.body || operation.query || caller === 'visitor') errors.add(400)
			if (caller === 'user') errors.add(401)
			if (named.length > 0) errors.add(404)
			const responses: RouteConfig['responses'] = {}
			for (const [status, answer] of Object.entries(operation.responses)) responses[status] = successResponse(Number(status), answer)
			for (const status of [...errors].sort()) {
				responses[String(status)] = { description: errorDescriptions[status] ?? 'An error.', content: { 'application/json': { schema: errorBodySchema } } }
			}

			const description = caller === 'user' ? withTokenScope(operation, `${mountPath}${operation.path === '/' ? '' : operation.path}`) : operation.description
			registry.registerPath({
				method: operation.method,
				path,
				tags: [tag],
				summary: operation.summary,
				description,
				security: caller === 'user' ? [{ bearerAuth: [] }] : caller === 'visitor' ? [{ visitorToken: [] }] : [],
				request: { params, query, body: operation.body && { required: true, content: bodyContent(operation.body) } },
				responses,
			})
		},
	}
}

/** The operation's description followed by what an access token needs to call it (api/http/token-scopes.ts). */
function withTokenScope(operation: Operation, expressPath: string): string {
	const method = operation.method.toUpperCase()
	const rule = tokenRules[`${method} /v1${expressPath}`]
	const scope =
		rule === undefined || rule === 'public'
			? ''
			: rule === 'never'
				? 'Not with an access token.'
				: `Access tokens: \`${rule}:${isWriteMethod(method) ? 'write' : 'read'}\`.`
	return [operation.description, scope].filter(Boolean).join(' ')
}

/** A success answer; without a schema, JSON is an object whose shape is only described (no zod schema holds it yet). */
function successResponse(status: number, answer: Answer): ResponseConfig {
	if (status === 204) return { description: typeof answer === 'string' ? answer : answer.description }
	if (typeof answer === 'string') return { description: answer, content: { 'application/json': { schema: z.object({}).passthrough() } } }
	const type = answer.type ?? 'application/json'
	return {
		description: answer.description,
		content: { [type]: { schema: answer.schema ?? (type === 'application/json' ? z.object({}).passthrough() : z.string()) } },
	}
}

/** The schemas a handler parses one part of the request with, as one (their keys together) for the generator. */
function oneSchema(schemas: RequestSchema | RequestSchema[] | undefined): RequestSchema | undefined {
	if (!Array.isArray(schemas)) return schemas
	return z.object(Object.assign({}, ...schemas.map(objectShape)) as z.ZodRawShape)
}

function bodyContent(body: NonNullable<Operation['body']>): ZodContentObject {
	const types: Partial<Record<MediaType, z.ZodTypeAny>> = body instanceof z.ZodType ? { 'application/json': body } : body
	return Object.fromEntries(Object.entries(types).flatMap(([type, schema]) => (schema ? [[type, { schema }]] : [])))
}

/** The keys of an object schema, under any refinements and transforms around it. */
function objectShape(schema: z.ZodTypeAny): Record<string, unknown> {
	if (schema instanceof z.ZodObject) return schema.shape as Record<string, unknown>
	if (schema instanceof z.ZodEffects) return objectShape(schema.innerType())
	return {}
}
