import { useTranslation } from 'react-i18next'
import { type AttachmentJson } from '#app/utils/conversations.ts'
import { formatFileSize } from '#app/utils/intl.ts'
import * as styles from './attachments.css.ts'

type Attachment = AttachmentJson

/**
 * A message's files: images shown (lazily, with their name as alt text), other files as links with
 * name and size, and why a file is missing. `hrefOf` is where this reader's browser gets a file:
 * through the web app, which asks the API as them (a member, or the link page's visitor).
 */
export function Attachments({ attachments, hrefOf }: { attachments: Attachment[]; hrefOf: (id: string) => string }) {
	const { t, i18n } = useTranslation('common', { keyPrefix: 'attachments' })
	if (attachments.length === 0) return null
	const size = (attachment: Attachment) => (attachment.size === null ? '' : formatFileSize(i18n.language, attachment.size))
	return (
		<ul className={styles.attachments} aria-label={t('label')}>
			{attachments.map((attachment) => {
				const href = hrefOf(attachment.id)
				if (attachment.status === 'too-large')
					return (
						<li key={attachment.id} className={styles.attachmentMissing} dir="auto">
							{t('tooLarge', { name: attachment.filename, size: size(attachment) || '?' })}
						</li>
					)
				if (attachment.status === 'failed')
					return (
						<li key={attachment.id} className={styles.attachmentMissing} dir="auto">
							{t('failed', { name: attachment.filename })}
						</li>
					)
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
