import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { ConfigError, parseConfig } from './config.ts'

const made: string[] = []
// Registered in each test file that imports this module (vitest gives every file its own copy).
afterAll(() => {
	for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A fresh DATA_DIR for one configuration, removed after the file's tests. */
export function tmpDataDir(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-config-'))
	made.push(dir)
	return dir
}

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
