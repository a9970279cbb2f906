import { cloneElement, isValidElement, type ReactNode } from 'react'

// Private-use characters no translation holds: where each value goes, by its index.
const open = '\uE000'
const close = '\uE001'
const slots = new RegExp(`${open}(\\d+)${close}`)

/**
 * A translated sentence with user-written values (a name, an address, a date), each isolated: a
 * string in its own `<bdi>`, an element as given (a `<bdi>` or an element with `dir`). Text of the
 * other direction, or ending in a full stop or a number, then keeps its place and its punctuation
 * ("assigned this to 7:38 · أميرة حسن PM" no more). The values never pass through the translation,
 * so nothing in them is markup.
 */
export function isolated(translate: (values: Record<string, string>) => string, values: Record<string, ReactNode>): ReactNode[] {
	const names = Object.keys(values)
	const marked = translate(Object.fromEntries(names.map((name, index) => [name, `${open}${index}${close}`])))
	return marked.split(slots).map((part, index) => {
		if (index % 2 === 0) return part
		const value = values[names[Number(part)]!]
		return isValidElement(value) ? cloneElement(value, { key: index }) : <bdi key={index}>{value}</bdi>
	})
}

/**
 * The same for a plain string (a title, an attribute): the value between U+2068 (first strong
 * isolate) and U+2069 (pop directional isolate), which is what `<bdi>` does in markup.
 */
export const isolatedText = (text: string) => `\u2068${text}\u2069`
