// Building an Intl formatter costs about 0.1 ms, and a page of the inbox shows fifty dates: one
// formatter per language, options and time zone, kept for the process (a few dozen at most).
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>()

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
	const key = `${locale}|${JSON.stringify(options)}`
	let format = dateFormats.get(key)
	if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)))
	return format
}

/** "3 min ago", "yesterday": narrow and in words where the language has them. */
export function relativeTimeFormat(locale: string): Intl.RelativeTimeFormat {
	let format = relativeFormats.get(locale)
	if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'narrow' })))
	return format
}
