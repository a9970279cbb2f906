/** The locales of the product: the code in the URL, the real language tag, and the direction. */
export const languages = [
	{ code: 'en-us', tag: 'en-US', name: 'English', dir: 'ltr' },
	{ code: 'ar-eg', tag: 'ar-EG', name: 'العربية', dir: 'rtl' },
	// `fr-x` is not a valid BCP 47 tag (a private-use subtag needs more), so `fr` stands for it.
	{ code: 'fr-x', tag: 'fr', name: 'Français', dir: 'ltr' },
] as const

export type Locale = (typeof languages)[number]['code']
export const locales = languages.map((language) => language.code) as [Locale, ...Locale[]]
export const defaultLocale: Locale = 'en-us'

export function isLocale(value: unknown): value is Locale {
	return typeof value === 'string' && (locales as string[]).includes(value)
}

export function languageOf(locale: Locale) {
	return languages.find((language) => language.code === locale) ?? languages[0]
}

/** Maps any language tag (`fr-FR`, `ar`, `en`, `fr-x`) to one of ours, or undefined. */
export function matchLocale(tag: string): Locale | undefined {
	const lower = tag.trim().toLowerCase()
	if (isLocale(lower)) return lower
	const primary = lower.split(/[-_]/)[0]
	return languages.find((language) => language.code.split('-')[0] === primary)?.code
}

/** Picks the best of our locales from an Accept-Language header, honouring q-values. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
	if (!header) return undefined
	const ranked = header
		.split(',')
		.map((part, index) => {
			const [tag = '', ...params] = part.split(';')
			const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
			return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index }
		})
		.filter((entry) => entry.tag && entry.tag !== '*' && Number.isFinite(entry.q) && entry.q > 0)
		.sort((a, b) => b.q - a.q || a.index - b.index)
	for (const entry of ranked) {
		const locale = matchLocale(entry.tag)
		if (locale) return locale
	}
	return undefined
}
