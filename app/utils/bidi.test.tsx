import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { isolated, isolatedText } from './bidi.tsx'

// A stand-in for i18next's `t`: `{{name}}` replaced by its value.
const texts: Record<string, string> = {
	team: 'فريق {{business}}',
	times: 'تسجيل الدخول {{created}} · آخر ظهور {{lastSeen}}',
}
const t = (key: string) => (values: Record<string, string>) => texts[key]!.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')

describe('isolated', () => {
	test('puts each value in its place inside a <bdi>, the translation’s words around them', () => {
		expect(renderToStaticMarkup(<>{isolated(t('team'), { business: 'Acme Inc.' })}</>)).toBe('فريق <bdi>Acme Inc.</bdi>')
		expect(renderToStaticMarkup(<>{isolated(t('times'), { created: '12 Jan 2026, 09:15', lastSeen: '3 Feb 2026, 18:40' })}</>)).toBe(
			'تسجيل الدخول <bdi>12 Jan 2026, 09:15</bdi> · آخر ظهور <bdi>3 Feb 2026, 18:40</bdi>',
		)
	})

	test('an element is kept as given; a plain string is isolated by its control characters', () => {
		expect(renderToStaticMarkup(<>{isolated(t('team'), { business: <span dir="auto">Acme</span> })}</>)).toBe('فريق <span dir="auto">Acme</span>')
		expect(isolatedText('Acme.')).toBe('\u2068Acme.\u2069')
	})

	test('a value is text, never markup nor a placeholder of its own', () => {
		expect(renderToStaticMarkup(<>{isolated(t('team'), { business: '<b>{{business}}</b> \uE0000\uE001' })}</>)).toBe(
			'فريق <bdi>&lt;b&gt;{{business}}&lt;/b&gt; \uE0000\uE001</bdi>',
		)
	})
})
