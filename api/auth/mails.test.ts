import { describe, expect, test } from 'vitest'
import { locales } from '#locales/languages.ts'
import { accountLink, accountMail, type AccountMailKind } from './mails.ts'

const kinds: AccountMailKind[] = ['verifyEmail', 'resetPassword']

describe('account mails', () => {
	test.each(locales.flatMap((locale) => kinds.map((kind) => ({ locale, kind }))))('$kind in $locale is fully translated', ({ locale, kind }) => {
		const mail = accountMail(kind, { to: 'a@example.test', name: 'Sam', locale, token: 'tok_en-1', publicUrl: 'https://crm.example' })
		const link = accountLink('https://crm.example', locale, kind, 'tok_en-1')
		expect(link).toBe(`https://crm.example/${locale}/auth/${kind === 'verifyEmail' ? 'verify-email' : 'reset-password'}?token=tok_en-1`)
		expect(mail).toMatchObject({ to: 'a@example.test', locale })
		// A missing key would come out as the key itself (without its namespace).
		for (const text of [mail.subject, mail.text, mail.html ?? '']) expect(text).not.toMatch(/\b(greeting|linkHelp|footer)\b|verifyEmail\.|resetPassword\.|\{\{/)
		expect(mail.text).toContain(link)
		expect(mail.text).toContain('Sam')
		expect(mail.text).toContain('crm.example')
		expect(mail.html).toContain(`href="${link}"`)
	})

	test('an unknown stored locale falls back to English', () => {
		const mail = accountMail('resetPassword', { to: 'a@example.test', name: 'Sam', locale: 'de-de', token: 't', publicUrl: 'http://crm.test' })
		expect(mail.subject).toBe('Reset your password')
		expect(mail.text).toContain('http://crm.test/en-us/auth/reset-password?token=t')
	})
})
