import { type ContactJson, type ContactPageJson } from '#app/.server/api.ts'

/** A contact as the API answers it. */
export type Contact = ContactJson

export type ContactPage = ContactPageJson

export const contactSorts = ['name', 'created', 'activity'] as const
export type ContactSort = (typeof contactSorts)[number]

/** The list's filter and order, read from the URL; unknown values fall back to the defaults. */
export function contactQuery(params: URLSearchParams) {
	const sort = contactSorts.find((value) => value === params.get('sort')) ?? 'name'
	const direction = params.get('direction') === 'desc' || params.get('direction') === 'asc' ? params.get('direction')! : sort === 'name' ? 'asc' : 'desc'
	return {
		search: params.get('search') ?? '',
		label: params.get('label') ?? '',
		sort,
		direction: direction as 'asc' | 'desc',
		cursor: params.get('cursor') ?? '',
	}
}

export type ContactQuery = ReturnType<typeof contactQuery>

/** `key: value` lines (the attributes field of the contact form) to a record, and back. */
export function parseAttributes(text: string): Record<string, string> | null {
	const attributes: Record<string, string> = {}
	for (const line of text.split(/\r?\n/)) {
		if (!line.trim()) continue
		const colon = line.indexOf(':')
		if (colon <= 0) return null
		attributes[line.slice(0, colon).trim()] = line.slice(colon + 1).trim()
	}
	return attributes
}

export function formatAttributes(attributes: Record<string, string>): string {
	return Object.entries(attributes)
		.map(([key, value]) => `${key}: ${value}`)
		.join('\n')
}
