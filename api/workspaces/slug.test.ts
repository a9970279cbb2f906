import { describe, expect, test } from 'vitest'
import { firstFreeSlug, randomSlugBase, slugBase } from './slug.ts'

describe('slugBase', () => {
	test('strips accents and transliterates', () => {
		expect(slugBase('Café Lumière')).toBe('cafe-lumiere')
		expect(slugBase('  Straße & Søn  ')).toBe('strasse-son')
		expect(slugBase('Œuvre  ÉLAN—2024!')).toBe('oeuvre-elan-2024')
	})

	test('gives up on names with no Latin letters or digits', () => {
		expect(slugBase('شركة النيل')).toBeUndefined()
		expect(slugBase('🙂🙂')).toBeUndefined()
		expect(slugBase('A!')).toBeUndefined()
	})

	test('keeps mixed names readable and short', () => {
		expect(slugBase('Acme شركة')).toBe('acme')
		const long = slugBase('x'.repeat(39) + ' tail of the name')
		expect(long).toBe('x'.repeat(39))
	})

	test('random bases are URL-safe', () => {
		expect(randomSlugBase()).toMatch(/^workspace-[0-9a-f]{6}$/)
	})
})

describe('firstFreeSlug', () => {
	test('numbers duplicates', () => {
		expect(firstFreeSlug('acme', new Set())).toBe('acme')
		expect(firstFreeSlug('acme', new Set(['acme']))).toBe('acme-2')
		expect(firstFreeSlug('acme', new Set(['acme', 'acme-2', 'acme-3']))).toBe('acme-4')
	})

	test('falls back to a random suffix when many are taken', () => {
		const taken = new Set(['acme', ...Array.from({ length: 99 }, (_, i) => `acme-${i + 2}`)])
		expect(firstFreeSlug('acme', taken)).toMatch(/^acme-[0-9a-f]{6}$/)
	})
})
