import { Link, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LabelChip } from '#app/components/label-chip.tsx'
import { list as chips } from '#app/components/label-chip.css.ts'
import { button } from '#app/components/ui/button.css.ts'
import { type DashboardLoader } from '#app/routes/$lang.dashboard.tsx'
import { withParams, type Conversation } from '#app/utils/conversations.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { Avatar } from './parts.tsx'
import * as styles from './inbox.css.ts'

/** The contact pane: who the customer is and the conversation's facts. */
export function ContactPanel({ conversation }: { conversation: Conversation }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const { pathname, search } = useLocation()
	const locale = useRouteLoaderData<DashboardLoader>('routes/$lang.dashboard')?.locale ?? 'en-us'
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const { contact } = conversation
	return (
		<div className={styles.details}>
			<Link to={withParams(pathname, search, { pane: null })} className={`${button.ghost} ${styles.contactLink}`}>
				{t('backToThread')}
			</Link>
			<h2 className={styles.rowTop} style={{ fontSize: '1.0625rem', fontWeight: 600 }}>
				<Avatar name={contact.name} color={contact.avatarColor} /> {contact.name}
			</h2>
			<dl className={styles.facts}>
				<dt className={styles.term}>{t('contact.email')}</dt>
				<dd dir="ltr">{contact.email ?? '—'}</dd>
				{contact.unverifiedEmail ? (
					<>
						<dt className={styles.term}>{t('contact.unverifiedEmail')}</dt>
						<dd>
							<bdi dir="ltr">{contact.unverifiedEmail}</bdi> <small>{t('contact.unverifiedNote')}</small>
						</dd>
					</>
				) : null}
				<dt className={styles.term}>{t('contact.phone')}</dt>
				<dd dir="ltr">{contact.phone ?? '—'}</dd>
				<dt className={styles.term}>{t('contact.channel')}</dt>
				<dd>{conversation.channel.name}</dd>
				<dt className={styles.term}>{t('contact.priority')}</dt>
				<dd>{t(`priority.${conversation.priority}`)}</dd>
				<dt className={styles.term}>{t('contact.started')}</dt>
				<dd>{date(conversation.createdAt)}</dd>
				<dt className={styles.term}>{t('contact.firstResponse')}</dt>
				<dd>{conversation.firstResponseAt ? date(conversation.firstResponseAt) : '—'}</dd>
				{conversation.snoozedUntil ? (
					<>
						<dt className={styles.term}>{t('contact.snoozedUntil')}</dt>
						<dd>{date(conversation.snoozedUntil)}</dd>
					</>
				) : null}
			</dl>
			{conversation.labels.length ? (
				<span className={chips}>
					{conversation.labels.map((label) => (
						<LabelChip key={label.id} label={label} />
					))}
				</span>
			) : null}
			<Link to={`/${locale}/dashboard/contacts?contact=${contact.id}`}>{t('contact.open')}</Link>
		</div>
	)
}
