import { type Invitation, type Workspace } from '#api/db/schema.ts'
import { translatorFor } from '#api/http/i18n.ts'
import { type Mail } from '#api/mail/mailer.ts'
import { languageOf, type Locale } from '#locales/languages.ts'

/** The sign-up page that reads the invitation from its query (it also handles a signed-in visitor). */
export function invitationUrl(publicUrl: string, locale: Locale, invitation: Pick<Invitation, 'code' | 'method'>): string {
	const query = new URLSearchParams({ agent_invite_code: invitation.code, agent_invite_method: invitation.method })
	return `${publicUrl}/${locale}/auth/signup?${query}`
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** The invitation mail in `locale` (the invitee's when they already have an account, else the workspace's). */
export function invitationMail(options: { publicUrl: string; locale: Locale; invitation: Invitation; workspace: Workspace; inviterName: string }): Mail {
	const { invitation, workspace, locale } = options
	const language = languageOf(locale)
	const t = translatorFor(locale)
	const url = invitationUrl(options.publicUrl, locale, invitation)
	const values = {
		inviter: options.inviterName,
		workspace: workspace.name,
		date: new Intl.DateTimeFormat(language.tag, { dateStyle: 'long', timeZone: workspace.timezone }).format(invitation.expiresAt),
	}
	const lines = {
		greeting: t('workspaces:mail.invitation.greeting'),
		body: t(`workspaces:mail.invitation.body.${invitation.role}`, values),
		action: t('workspaces:mail.invitation.action'),
		expires: t('workspaces:mail.invitation.expires', values),
		ignore: t('workspaces:mail.invitation.ignore'),
	}
	const html = `<!doctype html><html lang="${language.tag}" dir="${language.dir}"><body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>${escapeHtml(lines.greeting)}</p>
<p>${escapeHtml(lines.body)}</p>
<p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 16px; border-radius: 6px; background: #18181b; color: #fff; text-decoration: none">${escapeHtml(lines.action)}</a></p>
<p style="color: #52525b">${escapeHtml(lines.expires)}<br>${escapeHtml(lines.ignore)}</p>
</body></html>`
	return {
		to: invitation.email ?? '',
		locale,
		subject: t('workspaces:mail.invitation.subject', values),
		text: [lines.greeting, '', lines.body, '', `${lines.action}: ${url}`, '', lines.expires, lines.ignore].join('\n'),
		html,
	}
}
