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

/**
 * "3 min. ago", "il y a 3 min", "قبل ٣ دقائق", "yesterday": short, and in words where the language
 * has them. Not narrow: French narrow is "-3 min".
 */
export function relativeTimeFormat(locale: string): Intl.RelativeTimeFormat {
	let format = relativeFormats.get(locale)
	if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' })))
	return format
}

const numberFormats = new Map<string, Intl.NumberFormat>()

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
	const key = `${locale}|${JSON.stringify(options)}`
	let format = numberFormats.get(key)
	if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)))
	return format
}

/**
 * A file's size in the reader's language: "820 bytes", "14.2 kB", "3.1 MB" (decimal units, as file
 * managers show them). Bytes in words, which have a plural: the short unit is "29 byte" in English.
 */
export function formatFileSize(locale: string, bytes: number): string {
	const [unit, value] =
		bytes < 1000 ? (['byte', bytes] as const) : bytes < 1_000_000 ? (['kilobyte', bytes / 1000] as const) : (['megabyte', bytes / 1_000_000] as const)
	return numberFormat(locale, { style: 'unit', unit, unitDisplay: unit === 'byte' ? 'long' : 'short', maximumFractionDigits: 1 }).format(value)
}
