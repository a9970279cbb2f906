import { useTranslation } from 'react-i18next'
import { type Message } from '#app/utils/conversations.ts'
import { formatFileSize } from '#app/utils/intl.ts'
import * as styles from './inbox.css.ts'

type Attachment = Message['attachments'][number]

/** Where a member's browser reads a file: through the web app, which asks the API as them. */
export const attachmentHref = (locale: string, id: string) => `/${locale}/dashboard/attachments/${id}`

/** A message's files: images shown (lazily, with their name as alt text), other files as links with name and size, and why a file is missing. */
export function Attachments({ locale, attachments }: { locale: string; attachments: Attachment[] }) {
	const { t, i18n } = useTranslation('inbox', { keyPrefix: 'ui.attachments' })
	if (attachments.length === 0) return null
	const size = (attachment: Attachment) => (attachment.size === null ? '' : formatFileSize(i18n.language, attachment.size))
	return (
		<ul className={styles.attachments} aria-label={t('label')}>
			{attachments.map((attachment) => {
				const href = attachmentHref(locale, attachment.id)
				if (attachment.status === 'too-large') return <li key={attachment.id} className={styles.attachmentMissing} dir="auto">{t('tooLarge', { name: attachment.filename, size: size(attachment) || '?' })}</li>
				if (attachment.status === 'failed') return <li key={attachment.id} className={styles.attachmentMissing} dir="auto">{t('failed', { name: attachment.filename })}</li>
				if (attachment.kind === 'image') {
					return (
						<li key={attachment.id}>
							<a href={href} target="_blank" rel="noreferrer" className={styles.attachmentImageLink}>
								<img src={href} alt={t('imageAlt', { name: attachment.filename })} loading="lazy" decoding="async" className={styles.attachmentImage} />
							</a>
						</li>
					)
				}
				return (
					<li key={attachment.id}>
						<a href={href} className={styles.attachmentFile} download={attachment.filename}>
							<span aria-hidden="true">📎</span> <span dir="auto">{attachment.filename}</span>
							{attachment.size !== null ? <span className={styles.attachmentSize}>({size(attachment)})</span> : null}
						</a>
					</li>
				)
			})}
		</ul>
	)
}
