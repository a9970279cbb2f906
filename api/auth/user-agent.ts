/** What a sessions list shows of a User-Agent: the browser and the system, when recognised. */
export type Agent = { browser: string | null; system: string | null }

// Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari", and so on.
const browsers: Array<[RegExp, string]> = [
	[/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
	[/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
	[/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
	[/\bYaBrowser\/(\d+)/, 'Yandex'],
	[/\bVivaldi\/(\d+)/, 'Vivaldi'],
	[/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
	[/\b(?:Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome'],
	[/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
	[/\bcurl\/(\d+)/, 'curl'],
]

const systems: Array<[RegExp, (match: RegExpExecArray) => string]> = [
	[/\b(?:iPhone|iPad|iPod).*? OS (\d+)/, (m) => `iOS ${m[1]}`],
	[/\bAndroid (\d+)/, (m) => `Android ${m[1]}`],
	[/\bCrOS\b/, () => 'ChromeOS'],
	[/\bWindows NT 10\.0/, () => 'Windows'],
	[/\bWindows NT 6\.3/, () => 'Windows 8.1'],
	[/\bWindows NT 6\.1/, () => 'Windows 7'],
	[/\bWindows\b/, () => 'Windows'],
	[/\bMac OS X\b/, () => 'macOS'],
	[/\bLinux\b/, () => 'Linux'],
]

/** A small parser for the common browsers and systems; anything else is left to the raw agent. */
export function describeAgent(userAgent: string | null | undefined): Agent {
	if (!userAgent) return { browser: null, system: null }
	let browser: string | null = null
	for (const [pattern, name] of browsers) {
		const match = pattern.exec(userAgent)
		if (match) {
			browser = `${name} ${match[1]}`
			break
		}
	}
	let system: string | null = null
	for (const [pattern, name] of systems) {
		const match = pattern.exec(userAgent)
		if (match) {
			system = name(match)
			break
		}
	}
	return { browser, system }
}
