// The subset of a pino logger this module uses; pino instances satisfy it as they are.
export interface Logger {
	debug(obj: object, msg?: string): void
	info(obj: object, msg?: string): void
	warn(obj: object, msg?: string): void
	error(obj: object, msg?: string): void
}

const ignore = (): void => undefined

export const noopLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore }
