import crypto from 'node:crypto'

// Letters that Unicode decomposition does not reduce to ASCII.
const transliterations: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i' }

/** The URL-safe form of a name (`Café Lumière` → `cafe-lumiere`), or undefined when too little Latin is left. */
export function slugBase(name: string): string | undefined {
	const ascii = name
		.toLowerCase()
		.replace(/[ßæœøđðþłı]/g, (letter) => transliterations[letter] ?? letter)
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
	const slug = ascii
		.replace(/[^a-z0-9]+/g, '-')
		.slice(0, 40)
		.replace(/^-+|-+$/g, '')
	return slug.length >= 2 ? slug : undefined
}

/** A base for names written in another script (Arabic): readable, but random so it reveals nothing. */
export function randomSlugBase(): string {
	return `workspace-${crypto.randomBytes(3).toString('hex')}`
}

/** The first of `base`, `base-2`, `base-3`… not in `taken`; a random suffix after that many. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
	if (!taken.has(base)) return base
	for (let n = 2; n <= 100; n++) {
		if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
	}
	return randomSuffixed(base)
}

export function randomSuffixed(base: string): string {
	return `${base}-${crypto.randomBytes(3).toString('hex')}`
}
