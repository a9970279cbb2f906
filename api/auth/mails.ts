import { translatorFor } from '#api/http/i18n.ts'
import { type Mail } from '#api/mail/mailer.ts'
import { defaultLocale, isLocale, languageOf, type Locale } from '#locales/languages.ts'

export type AccountMailKind = 'verifyEmail' | 'resetPassword'

// The web app's page for each mailed link (specification, section 2).
const pages: Record<AccountMailKind, string> = {
	verifyEmail: 'auth/verify-email',
	resetPassword: 'auth/reset-password',
}

/** The absolute link a mail carries: `{PUBLIC_URL}/{locale}/auth/…?token=…`. */
export function accountLink(publicUrl: string, locale: Locale, kind: AccountMailKind, token: string): string {
	return `${publicUrl}/${locale}/${pages[kind]}?token=${encodeURIComponent(token)}`
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * A mail with a single-use link, in the recipient's language: plain text for every client and
 * a simple HTML version with a button, written right to left in Arabic.
 */
export function accountMail(
	kind: AccountMailKind,
	options: { to: string; name: string; locale: string; token: string; publicUrl: string },
): Mail {
	const locale = isLocale(options.locale) ? options.locale : defaultLocale
	const language = languageOf(locale)
	const t = translatorFor(locale)
	const link = accountLink(options.publicUrl, locale, kind, options.token)
	const text = {
		subject: t(`mail:${kind}.subject`),
		greeting: t('mail:greeting', { name: options.name }),
		intro: t(`mail:${kind}.intro`),
		action: t(`mail:${kind}.action`),
		linkHelp: t('mail:linkHelp'),
		expiry: t(`mail:${kind}.expiry`),
		ignore: t(`mail:${kind}.ignore`),
		footer: t('mail:footer', { site: new URL(options.publicUrl).host }),
	}
	const plain = [text.greeting, text.intro, link, `${text.expiry} ${text.ignore}`, `-- \n${text.footer}`].join('\n\n')
	const html = `<!doctype html>
<html lang="${language.tag}" dir="${language.dir}">
<head><meta charset="utf-8"><title>${escapeHtml(text.subject)}</title></head>
<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,'Segoe UI',Tahoma,Arial,sans-serif;font-size:15px;line-height:1.5;color:#18181b;background:#ffffff">
<p>${escapeHtml(text.greeting)}</p>
<p>${escapeHtml(text.intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#18181b;color:#ffffff;text-decoration:none">${escapeHtml(text.action)}</a></p>
<p style="font-size:13px;color:#52525b">${escapeHtml(text.linkHelp)}<br><a href="${escapeHtml(link)}" style="color:#52525b;word-break:break-all">${escapeHtml(link)}</a></p>
<p>${escapeHtml(text.expiry)} ${escapeHtml(text.ignore)}</p>
<hr style="border:none;border-top:1px solid #e4e4e7">
<p style="font-size:12px;color:#71717a">${escapeHtml(text.footer)}</p>
</body>
</html>
`
	return { to: options.to, subject: text.subject, text: `${plain}\n`, html, locale }
}
