import { escapeHtml } from '#api/auth/mails.ts'
import { type DB } from '#api/db/database.ts'
import { translatorFor } from '#api/http/i18n.ts'
import { type JobConfig } from '#api/jobs/queue.ts'
import { type Mail, type Mailer } from '#api/mail/mailer.ts'
import { chosenPreference, isolate, notificationKinds, type NotificationKind, type NotificationValues } from '#common/notifications.ts'
import { defaultLocale, isLocale, languageOf, type Locale } from '#locales/languages.ts'
import { mailedLinesAtMost } from './mail-queue.ts'
import { unsubscribeToken } from './unsubscribe-token.ts'
import { notificationAddress, notificationLine } from './words.ts'

/** The kinds a member gets by e-mail in a workspace: their stored choices, else the defaults. */
export async function emailedKinds(db: DB, member: { userId: string; workspaceId: string }): Promise<NotificationKind[]> {
	const rows = await db
		.selectFrom('notificationPreferences')
		.select(['kind', 'medium', 'enabled'])
		.where('userId', '=', member.userId)
		.where('workspaceId', '=', member.workspaceId)
		.where('medium', '=', 'email')
		.execute()
	return notificationKinds.filter((kind) => chosenPreference(rows, kind, 'email'))
}

/**
 * The `mail-notifications` task: the member's notifications of the workspace that are unread, not
 * mailed yet, and of a kind they get by e-mail, in one mail; none, no mail.
 *
 * They are marked mailed and then sent, in one transaction that commits only once the mail server
 * took the mail: a refusal rolls the marks back, and the retry mails them (with any newer ones);
 * what was accepted is marked, so no retry mails it again. The one window for a second copy is a
 * crash between the server's acceptance and the commit: a mail twice rather than never.
 */
export async function mailNotifications(
	db: DB,
	mailer: Mailer,
	config: Pick<JobConfig, 'PUBLIC_URL' | 'SESSION_SECRET'>,
	member: { userId: string; workspaceId: string },
) {
	await db.transaction().execute(async (trx) => {
		const recipient = await trx
			.selectFrom('members')
			.innerJoin('users', 'users.id', 'members.userId')
			.innerJoin('workspaces', 'workspaces.id', 'members.workspaceId')
			.select(['users.email', 'users.name', 'users.locale', 'workspaces.name as workspaceName'])
			.where('members.userId', '=', member.userId)
			.where('members.workspaceId', '=', member.workspaceId)
			.executeTakeFirst()
		if (!recipient) return
		const kinds = await emailedKinds(trx, member)
		if (kinds.length === 0) return
		const notifications = await trx
			.selectFrom('notifications')
			.select(['id', 'kind', 'values'])
			.where('userId', '=', member.userId)
			.where('workspaceId', '=', member.workspaceId)
			.where('readAt', 'is', null)
			.where('mailedAt', 'is', null)
			.where('kind', 'in', kinds)
			.orderBy('id')
			// One being marked read in the app right now is skipped: it is being read.
			.forUpdate()
			.skipLocked()
			.execute()
		if (notifications.length === 0) return
		await trx
			.updateTable('notifications')
			.set({ mailedAt: new Date() })
			.where(
				'id',
				'in',
				notifications.map((notification) => notification.id),
			)
			.execute()
		const locale = isLocale(recipient.locale) ? recipient.locale : defaultLocale
		await mailer.send(
			await notificationMail({
				to: recipient.email,
				name: recipient.name,
				locale,
				workspace: { id: member.workspaceId, name: recipient.workspaceName },
				userId: member.userId,
				notifications,
				publicUrl: config.PUBLIC_URL,
				secret: config.SESSION_SECRET,
			}),
		)
	})
}

type Mailed = { id: string; kind: NotificationKind; values: NotificationValues }

/** The web page a mail's "stop these e-mails" link opens: it shows what will be turned off, and a button; opening it changes nothing. */
export const unsubscribePage = (publicUrl: string, locale: Locale, token: string) =>
	new URL(`/${locale}/notifications/unsubscribe?token=${encodeURIComponent(token)}`, publicUrl).toString()

/** The API's one-click address (RFC 8058), for the `List-Unsubscribe` header: a POST turns those e-mails off. */
export const oneClickAddress = (publicUrl: string, token: string) =>
	new URL(`/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`, publicUrl).toString()

/**
 * A notification mail, in the member's language: each notification's line and link, a link per
 * kind that stops its e-mails, the settings, and the footer of every mail; the headers of a
 * one-click unsubscribe of every kind it holds.
 */
export async function notificationMail(options: {
	to: string
	name: string
	locale: Locale
	workspace: { id: string; name: string }
	userId: string
	notifications: Mailed[]
	publicUrl: string
	secret: string
}): Promise<Mail> {
	const { locale, publicUrl } = options
	const t = translatorFor(locale)
	const language = languageOf(locale)
	const listed = options.notifications.slice(0, mailedLinesAtMost)
	const more = options.notifications.length - listed.length
	const lines = await Promise.all(
		listed.map(async (notification) => ({ text: await notificationLine(locale, notification), link: notificationAddress(publicUrl, locale, notification) })),
	)
	const kinds = notificationKinds.filter((kind) => options.notifications.some((notification) => notification.kind === kind))
	const tokenOf = (which: NotificationKind[]) => unsubscribeToken(options.secret, { userId: options.userId, workspaceId: options.workspace.id, kinds: which })
	const stops = kinds.map((kind) => ({
		label: t('notifications:mail.stop', { kind: t(`notifications:kindNames.${kind}`) }),
		link: unsubscribePage(publicUrl, locale, tokenOf([kind])),
	}))
	const workspace = isolate(options.workspace.name)
	const count = options.notifications.length
	const subject = t('notifications:mail.subject', { count, workspace })
	const greeting = t('mail:greeting', { name: options.name })
	const intro = t('notifications:mail.intro', { workspace })
	const moreLine =
		more > 0 ? { text: t('notifications:mail.more', { count: more }), link: new URL(`/${locale}/dashboard/notifications`, publicUrl).toString() } : undefined
	const settings = { label: t('notifications:mail.settings'), link: new URL(`/${locale}/dashboard/notifications/settings`, publicUrl).toString() }
	const footer = t('mail:footer', { site: new URL(publicUrl).host })

	const text = [
		greeting,
		intro,
		...lines.map((line) => `• ${line.text}\n  ${line.link}`),
		...(moreLine ? [`${moreLine.text}\n  ${moreLine.link}`] : []),
		[...stops, settings].map((stop) => `${stop.label}: ${stop.link}`).join('\n'),
		`-- \n${footer}`,
	].join('\n\n')
	const link = (to: string, label: string, style = 'color:#18181b') => `<a href="${escapeHtml(to)}" style="${style}">${escapeHtml(label)}</a>`
	const html = `<!doctype html>
<html lang="${language.tag}" dir="${language.dir}">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,'Segoe UI',Tahoma,Arial,sans-serif;font-size:15px;line-height:1.5;color:#18181b;background:#ffffff">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<ul style="padding-inline-start:20px">
${lines.map((line) => `<li style="margin-block-end:8px">${link(line.link, line.text)}</li>`).join('\n')}
</ul>
${moreLine ? `<p>${link(moreLine.link, moreLine.text)}</p>\n` : ''}<hr style="border:none;border-top:1px solid #e4e4e7">
<p style="font-size:13px;color:#52525b">${[...stops, settings].map((stop) => link(stop.link, stop.label, 'color:#52525b')).join('<br>')}</p>
<p style="font-size:12px;color:#71717a">${escapeHtml(footer)}</p>
</body>
</html>
`
	return {
		to: options.to,
		subject,
		text: `${text}\n`,
		html,
		locale,
		headers: {
			'List-Unsubscribe': `<${oneClickAddress(publicUrl, tokenOf(kinds))}>`,
			'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
		},
	}
}
