// Writes common/timezone-countries.ts from tzdata's zone.tab: the country of each time zone, under its
// tzdata name and under the name this Node's ICU gives it (`Asia/Calcutta` for `Asia/Kolkata`).
// node scripts/timezone-countries.mjs [/usr/share/zoneinfo/zone.tab]
import fs from 'node:fs'
import process from 'node:process'
import { URL } from 'node:url'

const source = process.argv[2] ?? '/usr/share/zoneinfo/zone.tab'
const countries = new Map()
for (const line of fs.readFileSync(source, 'utf8').split('\n')) {
	if (!line || line.startsWith('#')) continue
	const [country, , zone] = line.split('\t')
	countries.set(zone, country)
	try {
		countries.set(new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone, country)
	} catch {
		// A zone this ICU does not know keeps its tzdata name only.
	}
}
const entries = [...countries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([zone, country]) => `\t'${zone}': '${country}',`)
fs.writeFileSync(
	new URL('../common/timezone-countries.ts', import.meta.url),
	`/** The country of each time zone, from tzdata's zone.tab (scripts/timezone-countries.mjs writes this file). */\nexport const timeZoneCountries: Readonly<Record<string, string>> = {\n${entries.join('\n')}\n}\n`,
)
