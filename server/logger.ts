import { pino, type Logger } from 'pino'

export type { Logger }

export function createLogger(level: string, pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production'): Logger {
	return pino({
		level,
		redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
		...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
	})
}
