import { describe, expect, test } from 'vitest'
import { checkBrowser, chromiumPath, debianChromium } from './browser.ts'

const own = '/cache/ms-playwright/chromium-1/chrome-linux/chrome'
const onDisk =
	(...files: string[]) =>
	(file: string) =>
		files.includes(file)

describe('the Chromium of the browser tests', () => {
	test('CHROMIUM_PATH first, then Debian’s, then Playwright’s own', () => {
		expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome' }, onDisk(debianChromium))).toBe('/opt/chrome')
		expect(chromiumPath({}, onDisk(debianChromium))).toBe(debianChromium)
		expect(chromiumPath({}, onDisk(own))).toBeUndefined()
		expect(checkBrowser(own, {}, onDisk(own))).toEqual({ ready: true, path: own })
	})

	test('none at all is said, and a CHROMIUM_PATH that names nothing is not replaced by a download', () => {
		expect(checkBrowser(own, {}, onDisk())).toEqual({ ready: false, reason: 'none' })
		expect(checkBrowser(own, { CHROMIUM_PATH: '/opt/chrome' }, onDisk(debianChromium, own))).toEqual({ ready: false, reason: 'missing-chromium-path' })
	})
})
