import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import { type Log } from '#api/db/embedded-postgres.ts'
import { type Config } from '#config/config.ts'

/**
 * Attempts before a mail is given up: graphile-worker waits e^n seconds (at most e^10, about 6 h)
 * after the n-th failure, so 10 attempts keep trying for about 10 hours (docs/decisions/018-faults.md).
 */
export const mailAttempts = 10

export type Mail = {
	to: string
	subject: string
	text: string
	html?: string
	locale?: string
	/** Headers besides the usual ones (a notification mail's `List-Unsubscribe`). */
	headers?: Record<string, string>
}

export type Mailer = {
	/** Sends a mail; resolves once the SMTP server accepted it or the .eml file is written, rejects when the server refused it. */
	send: (mail: Mail) => Promise<void>
}

/**
 * Mail through nodemailer: to `SMTP_URL` when set, otherwise as `.eml` files in
 * `DATA_DIR/outbox`, with the links they carry logged so a developer can follow them.
 * Only the job queue sends (the `send-mail` task, api/mail/jobs.ts): a request queues its mail.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>, log: Pick<Log, 'info'>): Mailer {
	const outbox = path.join(config.dataDir, 'outbox')
	const transport: Transporter = config.SMTP_URL
		? nodemailer.createTransport(config.SMTP_URL)
		: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })

	return {
		async send(mail) {
			const info = await transport.sendMail({
				from: config.MAIL_FROM,
				to: mail.to,
				subject: mail.subject,
				text: mail.text,
				html: mail.html,
				headers: { ...(mail.locale ? { 'Content-Language': mail.locale } : {}), ...mail.headers },
			})
			if (config.SMTP_URL) {
				log.info(`mail sent to ${mail.to}: ${mail.subject} (${info.messageId})`)
				return
			}
			await fs.mkdir(outbox, { recursive: true })
			// Sortable by time, unique within a millisecond.
			const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`)
			await fs.writeFile(file, info.message as Buffer)
			const links = mail.text.match(/https?:\/\/\S+/g) ?? []
			log.info(`mail to ${mail.to} written to ${file}${links.length > 0 ? `; its links: ${links.join(' ')}` : ''}`)
		},
	}
}
