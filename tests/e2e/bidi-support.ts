import { type Locator } from '@playwright/test'

type Drawn = { char: string; left: number; right: number }

/**
 * Where each character of an element's text is drawn (its text nodes in order): what a reader sees,
 * so that a test can tell a full stop drawn at the wrong end of its sentence from one in its place.
 */
export async function drawnCharacters(locator: Locator): Promise<Drawn[]> {
	return locator.evaluate((element) => {
		const drawn: Array<{ char: string; left: number; right: number }> = []
		const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			const text = node.textContent ?? ''
			for (let index = 0; index < text.length; index++) {
				const range = document.createRange()
				range.setStart(node, index)
				range.setEnd(node, index + 1)
				const { left, right } = range.getBoundingClientRect()
				drawn.push({ char: text[index]!, left, right })
			}
		}
		return drawn
	})
}

/** The characters of `part` (its last occurrence in the element's text) as drawn, spaces left out. */
async function drawnPart(locator: Locator, part: string): Promise<Drawn[]> {
	const drawn = await drawnCharacters(locator)
	const start = drawn
		.map((each) => each.char)
		.join('')
		.lastIndexOf(part)
	if (start < 0) throw new Error(`“${part}” is not in the text`)
	return drawn.slice(start, start + part.length).filter((each) => each.char.trim())
}

/** The horizontal extent of `part` as drawn in the element's text. */
export async function extentOf(locator: Locator, part: string): Promise<{ left: number; right: number }> {
	const chars = await drawnPart(locator, part)
	return { left: Math.min(...chars.map((each) => each.left)), right: Math.max(...chars.map((each) => each.right)) }
}

/** Whether `part`'s last character is drawn at its right end, after the one before it: a left-to-right fragment whose full stop stays in place. */
export async function endsOnTheRight(locator: Locator, part: string): Promise<boolean> {
	const chars = await drawnPart(locator, part)
	const [before, last] = chars.slice(-2)
	return Boolean(before && last && last.left >= before.right - 0.5 && chars.every((each) => each.right <= last.right + 0.5))
}
