import { test as base, expect, type Page } from '@playwright/test'
import { freshIp } from './accounts.ts'

/** `expected`: console errors a test provokes on purpose (a form's answer with the API's 502, said beside the form). */
type Problems = { consoleErrors: string[]; cspViolations: string[]; expected: RegExp[] }

/**
 * Every page test also fails on a console error or a Content-Security-Policy violation, so a
 * broken script or a blocked resource never goes unnoticed.
 */
export const test = base.extend<{ problems: Problems }>({
	// Each test is its own visitor (the server believes X-Forwarded-For from loopback), so the
	// per-address rate limits of one test never throttle another.
	extraHTTPHeaders: async ({ extraHTTPHeaders }, provide) => {
		await provide({ ...extraHTTPHeaders, 'X-Forwarded-For': freshIp() })
	},
	problems: [
		async ({ page }, use) => {
			const problems: Problems = { consoleErrors: [], cspViolations: [], expected: [] }
			page.on('console', (message) => {
				if (message.type() !== 'error') return
				const text = message.text()
				// Refused forms (400, 401, 409…) and 404 pages log their status; the tests assert what the user sees.
				if (/status of 4\d\d/.test(text)) return
				// Remix's own log when a navigation replaces one whose answer is still arriving (a filter changed twice
				// quickly): the first's body is cut off and the router drops it. Nothing failed (react-router#14203).
				if (text.startsWith('AbortError: BodyStreamBuffer was aborted')) return
				;(/Content Security Policy|Content-Security-Policy/i.test(text) ? problems.cspViolations : problems.consoleErrors).push(text)
			})
			page.on('pageerror', (error) => problems.consoleErrors.push(error.message))
			await use(problems)
			expect(problems.cspViolations, 'CSP violations').toEqual([])
			expect(
				problems.consoleErrors.filter((text) => !problems.expected.some((pattern) => pattern.test(text))),
				'console errors',
			).toEqual([])
		},
		{ auto: true },
	],
})

export { expect }

/** Waits until React has hydrated the page (the root marks it). */
export async function waitForHydration(page: Page) {
	await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
}
