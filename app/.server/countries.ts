import { getCountries } from 'libphonenumber-js/min'
import { languageOf, type Locale } from '#locales/languages.ts'

export { countryOfTimeZone } from '#common/countries.ts'

export type Country = { code: string; name: string }

const lists = new Map<Locale, Country[]>()

/** Every country phone numbers can be read in, by its name in the user's language, in that language's order. */
export function countriesIn(locale: Locale): Country[] {
	let list = lists.get(locale)
	if (!list) {
		const { tag } = languageOf(locale)
		const names = new Intl.DisplayNames([tag], { type: 'region', fallback: 'code' })
		const collator = new Intl.Collator(tag)
		list = getCountries()
			.map((code) => ({ code, name: names.of(code) ?? code }))
			.sort((a, b) => collator.compare(a.name, b.name))
		lists.set(locale, list)
	}
	return list
}

const fold = (text: string) =>
	text
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()

/**
 * The country a typed search names (what the country picker's search box sends without JavaScript):
 * its name in the user's language or in English, accents and case aside, or its two-letter code.
 */
export function findCountry(search: string, locale: Locale): string | undefined {
	const wanted = fold(search)
	if (!wanted) return undefined
	const code = wanted.toUpperCase()
	for (const list of [countriesIn(locale), countriesIn('en-us')]) {
		const found = list.find((country) => fold(country.name) === wanted) ?? list.find((country) => country.code === code)
		if (found) return found.code
	}
	// One country whose name starts with what was typed ("egy"): taken; several: none.
	const starting = countriesIn(locale).filter((country) => fold(country.name).startsWith(wanted))
	return starting.length === 1 ? starting[0]?.code : undefined
}
