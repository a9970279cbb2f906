import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** No serious or critical axe violation on the page, or in the part `within` names (a CSS selector); each one found is named with its elements. */
export async function expectAccessible(page: Page, within?: string) {
	const axe = new AxeBuilder({ page })
	const results = await (within ? axe.include(within) : axe).analyze()
	const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
	expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([])
}
