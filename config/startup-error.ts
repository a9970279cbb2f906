/** A start-up failure said in one line, with its fix: printed alone, never with a stack trace. */
export class StartupError extends Error {
	override name = 'StartupError'
}

/** A command's way out of a failed start: a StartupError's one line and exit code 1; anything else is a bug, with its stack. */
export function exitOnStartFailure(error: unknown): never {
	process.stderr.write(
		error instanceof StartupError ? `${error.message}\n` : `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	)
	process.exit(1)
}

/** DATA_DIR cannot be created or written (a file in its way, a read-only file system, no right to it). */
export function unusableDataDir(dataDir: string, error: unknown): StartupError {
	return new StartupError(
		`The data folder ${dataDir} cannot be used (${firstLine(error)}): set DATA_DIR=… to a folder this process can write, or DATABASE_URL=… to use your own PostgreSQL.`,
	)
}

export function firstLine(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}
