/** A run of a message's text, or a link found in it. */
export type TextPart = { text: string } | { href: string; text: string }

const urlPattern = /https?:\/\/[^\s<>"]+/gi
// Punctuation that ends a sentence after a link is not part of it (`see https://a.example/x.`).
const trailingPunctuation = /[.,;:!?'’”»)\]}]+$/

/**
 * Splits plain text into text and http(s) links, for rendering as React text and <a> elements:
 * nothing is ever parsed as HTML, and no other scheme (javascript:, data:) becomes a link.
 */
export function linkify(text: string): TextPart[] {
	const parts: TextPart[] = []
	let last = 0
	for (const match of text.matchAll(urlPattern)) {
		const start = match.index
		let candidate = match[0].replace(trailingPunctuation, '')
		// A closing parenthesis that the link itself opened stays: https://en.wikipedia.org/wiki/Foo_(bar)
		if (match[0].length > candidate.length && match[0][candidate.length] === ')' && candidate.includes('(')) candidate += ')'
		if (!URL.canParse(candidate)) continue
		const url = new URL(candidate)
		if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
		if (start > last) parts.push({ text: text.slice(last, start) })
		parts.push({ href: url.href, text: candidate })
		last = start + candidate.length
	}
	if (last < text.length) parts.push({ text: text.slice(last) })
	return parts
}
