import fs from 'node:fs'

/** Debian's Chromium (`apt-get install chromium`). */
export const debianChromium = '/usr/bin/chromium'

/**
 * The Chromium the browser tests run: CHROMIUM_PATH, else Debian's when it is there, else
 * undefined: Playwright's own (`npx playwright install chromium`).
 */
export function chromiumPath(env: Partial<Record<string, string>> = process.env, exists: (file: string) => boolean = fs.existsSync): string | undefined {
	return env.CHROMIUM_PATH || (exists(debianChromium) ? debianChromium : undefined)
}

export type BrowserCheck = { ready: true; path: string } | { ready: false; reason: 'missing-chromium-path' | 'none' }

/** Whether the browser tests have a Chromium to run: the one chromiumPath names, or Playwright's own at `playwrightOwn`. */
export function checkBrowser(
	playwrightOwn: string,
	env: Partial<Record<string, string>> = process.env,
	exists: (file: string) => boolean = fs.existsSync,
): BrowserCheck {
	const chosen = chromiumPath(env, exists)
	if (chosen) return exists(chosen) ? { ready: true, path: chosen } : { ready: false, reason: 'missing-chromium-path' }
	return exists(playwrightOwn) ? { ready: true, path: playwrightOwn } : { ready: false, reason: 'none' }
}

/** The three ways to give the browser tests a Chromium, in one line. */
export const browserWays = `Chromium for the browser tests: install Debian's (apt-get install chromium, at ${debianChromium}), set CHROMIUM_PATH to a Chromium, or run npx playwright install chromium; or skip them with SKIP=e2e npm test.`
