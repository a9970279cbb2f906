import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ConfigError, parseConfig } from './config.ts'

/** A fresh DATA_DIR for one configuration. */
export const tmpDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'crm-config-'))

/** The problems an environment is refused for, one line each; none when it is valid. */
export function problemsOf(env: Record<string, string>): string[] {
	try {
		parseConfig(env, tmpDataDir())
	} catch (error) {
		if (error instanceof ConfigError) return error.problems
		throw error
	}
	return []
}
