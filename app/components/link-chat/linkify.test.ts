import { describe, expect, test } from 'vitest'
import { linkify } from './linkify.ts'

describe('linkify', () => {
	test('finds http and https links among text, leaving sentence punctuation out', () => {
		expect(linkify('See https://shop.example/orders/42. Or http://a.example, thanks!')).toEqual([
			{ text: 'See ' },
			{ href: 'https://shop.example/orders/42', text: 'https://shop.example/orders/42' },
			{ text: '. Or ' },
			{ href: 'http://a.example/', text: 'http://a.example' },
			{ text: ', thanks!' },
		])
	})

	test('keeps a parenthesis the link opened, and Arabic text around a link', () => {
		expect(linkify('(https://en.wikipedia.org/wiki/Foo_(bar))')).toEqual([
			{ text: '(' },
			{ href: 'https://en.wikipedia.org/wiki/Foo_(bar)', text: 'https://en.wikipedia.org/wiki/Foo_(bar)' },
			{ text: ')' },
		])
		expect(linkify('الرابط: https://مثال.example/صفحة')).toEqual([
			{ text: 'الرابط: ' },
			{ href: expect.stringMatching(/^https:\/\/xn--/), text: 'https://مثال.example/صفحة' },
		])
	})

	test('never links another scheme, and leaves HTML as text', () => {
		expect(linkify('javascript:alert(1) data:text/html,<b>x</b> <a href="https://x.example">x</a>')).toEqual([
			{ text: 'javascript:alert(1) data:text/html,<b>x</b> <a href="' },
			{ href: 'https://x.example/', text: 'https://x.example' },
			{ text: '">x</a>' },
		])
		expect(linkify('no links here')).toEqual([{ text: 'no links here' }])
		expect(linkify('')).toEqual([])
	})
})
