import { describe, expect, test } from 'vitest'
import { describeAgent } from './user-agent.ts'

describe('describeAgent', () => {
	test.each([
		['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome 124', 'Windows'],
		[
			'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
			'Edge 124',
			'Windows',
		],
		['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 'Safari 17', 'macOS'],
		[
			'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
			'Safari 17',
			'iOS 17',
		],
		[
			'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
			'Chrome 124',
			'iOS 17',
		],
		['Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox 125', 'Linux'],
		[
			'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
			'Samsung Internet 24',
			'Android 14',
		],
		['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0', 'Opera 109', 'ChromeOS'],
		['curl/8.5.0', 'curl 8', null],
		['something-else/1.0', null, null],
	])('%s', (agent, browser, system) => {
		expect(describeAgent(agent)).toEqual({ browser, system })
	})

	test('no agent', () => expect(describeAgent(null)).toEqual({ browser: null, system: null }))
})
