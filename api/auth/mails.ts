import { translatorFor } from '#api/http/i18n.ts'
import { type Mail } from '#api/mail/mailer.ts'
import { defaultLocale, isLocale, languageOf, type Locale } from '#locales/languages.ts'

export type AccountMailKind = 'verifyEmail' | 'resetPassword'

// The web app's page for each mailed link (docs/specification.txt, section 2).
const pages: Record<AccountMailKind, string> = {
	verifyEmail: 'auth/verify-email',
	resetPassword: 'auth/reset-password',
}

/** The absolute link a mail carries: `{PUBLIC_URL}/{locale}/auth/…?token=…`. */
export function accountLink(publicUrl: string, locale: Locale, kind: AccountMailKind, token: string): string {
	return `${publicUrl}/${locale}/${pages[kind]}?token=${encodeURIComponent(token)}`
}

/** Text made safe inside HTML, attributes included. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * A mail with a single-use link, in the recipient's language: plain text for every client and
 * a simple HTML version with a button, written right to left in Arabic.
 */
export function accountMail(kind: AccountMailKind, options: { to: string; name: string; locale: string; token: string; publicUrl: string }): Mail {
	const locale = isLocale(options.locale) ? options.locale : defaultLocale
	const t = translatorFor(locale)
	return layoutMail({
		to: options.to,
		locale,
		publicUrl: options.publicUrl,
		subject: t(`mail:${kind}.subject`),
		greeting: t('mail:greeting', { name: options.name }),
		intro: t(`mail:${kind}.intro`),
		action: { label: t(`mail:${kind}.action`), link: accountLink(options.publicUrl, locale, kind, options.token) },
		closing: `${t(`mail:${kind}.expiry`)} ${t(`mail:${kind}.ignore`)}`,
	})
}

/**
 * The mail of a member whose two-step sign-in an owner or admin turned off: who did it, where, and
 * a link to set it up again; nothing to click to undo, since the sign-in needs only the password now.
 */
export function twoFactorResetMail(options: { to: string; name: string; locale: string; publicUrl: string; actor: string; workspace: string }): Mail {
	const locale = isLocale(options.locale) ? options.locale : defaultLocale
	const t = translatorFor(locale)
	const values = { actor: options.actor, workspace: options.workspace, interpolation: { escapeValue: false } }
	return layoutMail({
		to: options.to,
		locale,
		publicUrl: options.publicUrl,
		subject: t('mail:twoFactorReset.subject'),
		greeting: t('mail:greeting', { name: options.name, interpolation: { escapeValue: false } }),
		intro: t('mail:twoFactorReset.intro', values),
		action: { label: t('mail:twoFactorReset.action'), link: `${options.publicUrl}/${locale}/dashboard/profile#two-factor` },
		closing: t('mail:twoFactorReset.ignore', values),
	})
}

/** The mail of an owner or admin whose workspace's outgoing webhook was turned off after failing for a day: which one, and a link to its log. */
export function webhookDisabledMail(options: {
	to: string
	name: string
	locale: string
	publicUrl: string
	url: string
	workspace: string
	subscriptionId: string
}): Mail {
	const locale = isLocale(options.locale) ? options.locale : defaultLocale
	const t = translatorFor(locale)
	const values = { url: options.url, workspace: options.workspace, interpolation: { escapeValue: false } }
	return layoutMail({
		to: options.to,
		locale,
		publicUrl: options.publicUrl,
		subject: t('webhooks:mail.subject', values),
		greeting: t('mail:greeting', { name: options.name, interpolation: { escapeValue: false } }),
		intro: t('webhooks:mail.intro', values),
		action: { label: t('webhooks:mail.action'), link: `${options.publicUrl}/${locale}/dashboard/settings/integrations/webhooks/${options.subscriptionId}` },
		closing: t('webhooks:mail.closing', values),
	})
}

/** Greeting, what happened, one button (its address also written out), a closing line and the footer. */
function layoutMail(parts: {
	to: string
	locale: Locale
	publicUrl: string
	subject: string
	greeting: string
	intro: string
	action: { label: string; link: string }
	closing: string
}): Mail {
	const language = languageOf(parts.locale)
	const t = translatorFor(parts.locale)
	const { link } = parts.action
	const linkHelp = t('mail:linkHelp')
	const footer = t('mail:footer', { site: new URL(parts.publicUrl).host })
	const plain = [parts.greeting, parts.intro, link, parts.closing, `-- \n${footer}`].join('\n\n')
	const html = `<!doctype html>
<html lang="${language.tag}" dir="${language.dir}">
<head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>
<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,'Segoe UI',Tahoma,Arial,sans-serif;font-size:15px;line-height:1.5;color:#18181b;background:#ffffff">
<p>${escapeHtml(parts.greeting)}</p>
<p>${escapeHtml(parts.intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#18181b;color:#ffffff;text-decoration:none">${escapeHtml(parts.action.label)}</a></p>
<p style="font-size:13px;color:#52525b">${escapeHtml(linkHelp)}<br><a href="${escapeHtml(link)}" style="color:#52525b;word-break:break-all">${escapeHtml(link)}</a></p>
<p>${escapeHtml(parts.closing)}</p>
<hr style="border:none;border-top:1px solid #e4e4e7">
<p style="font-size:12px;color:#71717a">${escapeHtml(footer)}</p>
</body>
</html>
`
	return { to: parts.to, subject: parts.subject, text: `${plain}\n`, html, locale: parts.locale }
}
