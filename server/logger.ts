import { type IncomingMessage, type ServerResponse } from 'node:http'
import { pino, type Logger } from 'pino'

export type { Logger }

/**
 * JSON lines for a log collector; in a terminal (stdout is a TTY), pino-pretty's readable lines,
 * one per request (the request's fields are in its message, so they are left out of the line).
 */
export function createLogger(level: string, pretty = Boolean(process.stdout.isTTY)): Logger {
	return pino({
		level,
		redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
		...(pretty
			? {
					transport: {
						target: 'pino-pretty',
						options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,req,res,responseTime,reqId', singleLine: true },
					},
				}
			: {}),
	})
}

/** What pino-http says of a finished request: `GET /en-us 200 12 ms`. */
export const requestMessages = {
	customSuccessMessage: (req: IncomingMessage, res: ServerResponse, responseTime: number) =>
		`${req.method ?? ''} ${req.url ?? ''} ${res.statusCode} ${Math.round(responseTime)} ms`,
	customErrorMessage: (req: IncomingMessage, res: ServerResponse, error: Error) => `${req.method ?? ''} ${req.url ?? ''} ${res.statusCode} ${error.message}`,
}
