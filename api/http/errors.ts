import { type ErrorRequestHandler, type Request, type RequestHandler } from 'express'
import { type TFunction } from 'i18next'
import { isDatabaseUnavailable, isUniqueViolation } from '#api/db/errors.ts'

/** Values interpolated into a translated message. */
export type MessageValues = Record<string, string | number>

/**
 * An error the API answers on purpose: a status, a translation key for the message and
 * optional details. Anything else that reaches the error handler is a bug and answers 500.
 */
export class HttpError extends Error {
	constructor(
		readonly statusCode: number,
		readonly messageKey: string,
		readonly options: { values?: MessageValues; details?: unknown; headers?: Record<string, string> } = {},
	) {
		super(messageKey)
		this.name = 'HttpError'
	}
}

/** An error whose message is also shown beside one field of the form. */
export function fieldError(req: Request, status: number, field: string, messageKey: string, values: MessageValues = {}): HttpError {
	return new HttpError(status, messageKey, { values, details: { source: 'body', fields: { [field]: [req.t(messageKey, values)] } } })
}

/**
 * For a write's `catch`: a duplicate the database refused on `constraint` (a name another row of the
 * workspace has) is a 409 beside `field`; any other error is thrown as it is.
 */
export function refusedAsTaken(req: Request, constraint: string, field: string, messageKey: string, values: MessageValues = {}) {
	return (error: unknown): never => {
		throw isUniqueViolation(error, constraint) ? fieldError(req, 409, field, messageKey, values) : error
	}
}

export type ErrorBody = { message: string; statusCode: number; details: unknown }

export function errorBody(t: TFunction<'api'>, error: HttpError): ErrorBody {
	return {
		message: t(error.messageKey, error.options.values ?? {}) as string,
		statusCode: error.statusCode,
		details: error.options.details ?? null,
	}
}

export const notFound: RequestHandler = (req, _res, next) => {
	next(new HttpError(404, 'errors.notFound', { values: { method: req.method, path: req.originalUrl.split('?')[0] ?? '' } }))
}

type BodyParserError = Error & { type?: string; status?: number }

/** Maps body-parser's failures to our own errors, so they are translated like the rest. */
function fromBodyParser(error: BodyParserError): HttpError | undefined {
	if (error.type === 'entity.parse.failed') return new HttpError(400, 'errors.invalidJson')
	if (error.type === 'entity.too.large') return new HttpError(413, 'errors.payloadTooLarge')
	if (error.status && error.status >= 400 && error.status < 500) return new HttpError(error.status, 'errors.validation')
	return undefined
}

/** A database that cannot be reached is a 503 the caller may retry, with the time to wait, not a 500. */
function fromDatabase(error: Error): HttpError | undefined {
	return isDatabaseUnavailable(error) ? new HttpError(503, 'errors.databaseUnavailable', { headers: { 'Retry-After': '5' } }) : undefined
}

export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
	const known = error instanceof HttpError ? error : error instanceof Error ? (fromBodyParser(error) ?? fromDatabase(error)) : undefined
	const httpError = known ?? new HttpError(500, 'errors.internal')
	if (!known) req.log.error({ err: error }, 'unhandled error in /v1')
	else if (httpError.statusCode >= 500) req.log.warn({ err: error }, 'request failed')
	for (const [name, value] of Object.entries(httpError.options.headers ?? {})) res.setHeader(name, value)
	res.status(httpError.statusCode).json(errorBody(req.t, httpError))
}
