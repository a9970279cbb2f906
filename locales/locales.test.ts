import { describe, expect, test } from 'vitest'
import { languageOf, locales } from './languages.ts'
import { resources } from './resources.ts'

type Tree = { [key: string]: string | Tree }

function flatten(tree: Tree, prefix = ''): Map<string, string> {
	const entries = new Map<string, string>()
	for (const [key, value] of Object.entries(tree)) {
		if (typeof value === 'string') entries.set(prefix + key, value)
		else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) entries.set(inner, text)
	}
	return entries
}

const flat = Object.fromEntries(
	locales.map((locale) => [locale, new Map(Object.entries(resources[locale]).flatMap(([namespace, tree]) => [...flatten(tree as Tree, `${namespace}:`)]))]),
) as Record<(typeof locales)[number], Map<string, string>>

// Words that are the same in every language: product and brand names.
const sameEverywhere =
	/^(CRM|WhatsApp|Telegram|Instagram|Facebook|Messenger|API|Contacts|Orange|Violet|Rose|Zinc|Mode|Menu|Agents?|Actions|Invitations?|Pages|Active|E-mail|Description|Notes|Conversations?|Messages|Webhooks)$/

// i18next's plural forms: `key_one`, `key_other`… as many as the language's plural rules have.
const pluralSuffix = /_(zero|one|two|few|many|other)$/
const withoutPlural = (key: string) => key.replace(pluralSuffix, '')

describe('translations', () => {
	// Plurals included: a locale has all six forms of a plural whenever one language needs them (Arabic does).
	test('every key exists in every locale', () => {
		const all = new Set(locales.flatMap((locale) => [...flat[locale].keys()]))
		for (const locale of locales) {
			const missing = [...all].filter((key) => !flat[locale].has(key))
			expect(missing, `${locale} lacks`).toEqual([])
		}
	})

	test('a plural has every form its language needs (Arabic has six)', () => {
		for (const locale of locales) {
			const forms = new Intl.PluralRules(languageOf(locale).tag).resolvedOptions().pluralCategories
			const plurals = new Set([...flat[locale].keys()].filter((key) => pluralSuffix.test(key)).map(withoutPlural))
			const missing = [...plurals].flatMap((key) => forms.filter((form) => !flat[locale].has(`${key}_${form}`)).map((form) => `${key}_${form}`))
			expect(missing, `${locale} lacks`).toEqual([])
		}
	})

	test('Arabic and French are translated, not English left in place', () => {
		for (const locale of ['ar-eg', 'fr-x'] as const) {
			const untranslated = [...flat['en-us']].filter(([key, english]) => flat[locale].get(key) === english && !sameEverywhere.test(english))
			expect(
				untranslated.map(([key]) => key),
				`${locale} still in English`,
			).toEqual([])
		}
	})

	test('Arabic texts are written in Arabic script', () => {
		const latinOnly = [...flat['ar-eg']].filter(([, text]) => !/[\u0600-\u06FF]/.test(text) && !sameEverywhere.test(text))
		expect(latinOnly.map(([key]) => key)).toEqual([])
	})

	// "1 contacts in this view": a number said before a noun needs the language's plural forms, and i18next picks them by `count`.
	test('a number before a noun is a plural', () => {
		const counted = /\{\{\w+\}\} (contacts?|conversations?|messages?|days?|hours?|minutes?|seconds?|characters?|rows?|values?|codes?)\b/
		const singular = [...flat['en-us']].filter(([key, english]) => !pluralSuffix.test(key) && counted.test(english))
		expect(singular.map(([key, english]) => `${key}: ${english}`)).toEqual([])
	})

	test('interpolations are kept in every translation', () => {
		const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort()
		for (const [key, english] of flat['en-us']) {
			for (const locale of ['ar-eg', 'fr-x'] as const) expect(variables(flat[locale].get(key) ?? ''), `${locale} ${key}`).toEqual(variables(english))
		}
	})
})
