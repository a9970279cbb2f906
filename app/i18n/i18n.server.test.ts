import { describe, expect, test } from 'vitest'
import { serverI18n, serverT } from './i18n.server.ts'

describe('server i18next', () => {
	test('one instance per locale, shared by every render, each in its own language', async () => {
		const [arabic, again, french] = await Promise.all([serverI18n('ar-eg'), serverI18n('ar-eg'), serverI18n('fr-x')])
		expect(arabic).toBe(again)
		expect(arabic).not.toBe(french)
		expect([arabic.language, french.language]).toEqual(['ar-EG', 'fr'])
		expect(arabic.t('app.loading')).toBe('جارٍ التحميل…')
		expect((await serverT('en-us'))('app.loading')).not.toBe(arabic.t('app.loading'))
	})
})
