import { Fragment, type ReactNode } from 'react'

// Private-use characters no translation holds: where each value goes, by its index.
const open = '\uE000'
const close = '\uE001'
const slots = new RegExp(`${open}(\\d+)${close}`)

/**
 * A translation with user-written values (a name, an address, a date) in it, each in a `<bdi>`:
 * text of the other direction, or ending in a full stop or a number, then keeps its place and its
 * punctuation. The values never pass through the translation, so nothing in them is markup.
 */
export function isolated(translate: (key: string, values: Record<string, string>) => string, key: string, values: Record<string, string>): ReactNode {
	const names = Object.keys(values)
	const text = translate(key, Object.fromEntries(names.map((name, index) => [name, `${open}${index}${close}`])))
	return text.split(slots).map((part, index) => (index % 2 === 1 ? <bdi key={index}>{values[names[Number(part)]!]}</bdi> : <Fragment key={index}>{part}</Fragment>))
}
