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

const numberFormats = new Map<string, Intl.NumberFormat>()

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
	const key = `${locale}|${JSON.stringify(options)}`
	let format = numberFormats.get(key)
	if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)))
	return format
}

/** A file's size in the reader's language: "820 B", "14.2 kB", "3.1 MB" (decimal units, as file managers show them). */
export function formatFileSize(locale: string, bytes: number): string {
	const [unit, value] = bytes < 1000 ? (['byte', bytes] as const) : bytes < 1_000_000 ? (['kilobyte', bytes / 1000] as const) : (['megabyte', bytes / 1_000_000] as const)
	return numberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value)
}
