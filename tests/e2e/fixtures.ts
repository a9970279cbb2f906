import { test as base, expect, type Page } from '@playwright/test'

type Problems = { consoleErrors: string[]; cspViolations: string[] }

/**
 * Every page test also fails on a console error or a Content-Security-Policy violation, so a
 * broken script or a blocked resource never goes unnoticed.
 */
export const test = base.extend<{ problems: Problems }>({
	problems: [
		async ({ page }, use) => {
			const problems: Problems = { consoleErrors: [], cspViolations: [] }
			page.on('console', (message) => {
				if (message.type() !== 'error') return
				const text = message.text()
				// A 404 page is expected to log the failed document load; the tests assert its status themselves.
				if (/status of 404/.test(text)) return
				;(/Content Security Policy|Content-Security-Policy/i.test(text) ? problems.cspViolations : problems.consoleErrors).push(text)
			})
			page.on('pageerror', (error) => problems.consoleErrors.push(error.message))
			await use(problems)
			expect(problems.cspViolations, 'CSP violations').toEqual([])
			expect(problems.consoleErrors, 'console errors').toEqual([])
		},
		{ auto: true },
	],
})

export { expect }

/** Waits until React has hydrated the page (the root marks it). */
export async function waitForHydration(page: Page) {
	await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
}
