import { describe, expect, test } from 'vitest'
import { instantIn, rateOf, renderMessage } from './queries.ts'

describe('a schedule in the workspace time zone', () => {
	test('a wall-clock time becomes the instant it is there, summer or winter', () => {
		expect(instantIn('2099-01-01T09:00', 'Asia/Tokyo').toISOString()).toBe('2099-01-01T00:00:00.000Z')
		expect(instantIn('2030-01-15T10:30', 'Europe/Paris').toISOString()).toBe('2030-01-15T09:30:00.000Z')
		expect(instantIn('2030-07-15T10:30', 'Europe/Paris').toISOString()).toBe('2030-07-15T08:30:00.000Z')
		expect(instantIn('2030-07-15T10:30:15', 'Africa/Cairo').toISOString()).toBe('2030-07-15T07:30:15.000Z')
		expect(instantIn('2030-07-15T10:30:00Z', 'Asia/Tokyo').toISOString()).toBe('2030-07-15T10:30:00.000Z')
	})

	test('an impossible date is no instant', () => {
		expect(Number.isNaN(instantIn('2030-13-01T10:00', 'UTC').getTime())).toBe(true)
		expect(Number.isNaN(instantIn('2030-01-01T25:00', 'UTC').getTime())).toBe(true)
	})
})

describe('variables', () => {
	const contact = { name: 'Layla', company: null, email: 'l@example.test', phone: null, attributes: { plan: 'Gold', company: 'attr' } }
	test('built-in fields, custom attributes and fallbacks', () => {
		expect(renderMessage('{{name}} / {{ company | Acme }} / {{plan}} / {{attributes.company}} / {{missing|—}} / {{missing}}!', contact)).toBe(
			'Layla / Acme / Gold / attr / — / !',
		)
	})

	test('a variable named like what every object has (toString, constructor, __proto__) is a missing one, not a crash', () => {
		expect(renderMessage('{{toString|x}} {{constructor}} {{attributes.__proto__|y}} {{hasOwnProperty}}.', contact)).toBe('x  y .')
	})
})

describe('the rate', () => {
	test('the campaign’s own, else its channel’s, else the channel kind’s default', () => {
		expect(rateOf({ ratePerSecond: 5 }, { kind: 'telegram', campaignRatePerSecond: 12 })).toBe(5)
		expect(rateOf({ ratePerSecond: null }, { kind: 'telegram', campaignRatePerSecond: 12 })).toBe(12)
		expect(rateOf({ ratePerSecond: null }, { kind: 'telegram', campaignRatePerSecond: null })).toBe(30)
		expect(rateOf({ ratePerSecond: null }, { kind: 'instagram', campaignRatePerSecond: null })).toBe(10)
	})
})
