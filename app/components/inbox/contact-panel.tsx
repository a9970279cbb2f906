import { Link, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LabelChips } from '#app/components/label-chip.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { type DashboardLoader } from '#app/routes/$lang.dashboard.tsx'
import { withParams, type Conversation } from '#app/utils/conversations.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { ChannelIcon } from './channel-icon.tsx'
import { Avatar, RelativeTime } from './parts.tsx'
import * as styles from './inbox.css.ts'

/** The contact pane: who the customer is, the conversation's facts and the contact's other conversations. */
export function ContactPanel({ conversation, others }: { conversation: Conversation; others: Conversation[] }) {
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
				<Avatar name={contact.name} color={contact.avatarColor} /> <bdi>{contact.name}</bdi>
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
				<dd>
					<bdi>{conversation.channel.name}</bdi>
				</dd>
				<dt className={styles.term}>{t('contact.priority')}</dt>
				<dd>{t(`priority.${conversation.priority}`)}</dd>
				<dt className={styles.term}>{t('contact.started')}</dt>
				<dd>
					<bdi>{date(conversation.createdAt)}</bdi>
				</dd>
				<dt className={styles.term}>{t('contact.firstResponse')}</dt>
				<dd>{conversation.firstResponseAt ? <bdi>{date(conversation.firstResponseAt)}</bdi> : '—'}</dd>
				{conversation.snoozedUntil ? (
					<>
						<dt className={styles.term}>{t('contact.snoozedUntil')}</dt>
						<dd>
							<bdi>{date(conversation.snoozedUntil)}</bdi>
						</dd>
					</>
				) : null}
			</dl>
			<LabelChips labels={conversation.labels} />
			<Link to={`/${locale}/dashboard/contacts?contact=${contact.id}`}>{t('contact.open')}</Link>
			<section aria-labelledby="contact-conversations">
				<h3 id="contact-conversations" className={styles.panelHeading}>
					{t('contact.conversations')}
				</h3>
				{others.length === 0 ? (
					<p className={styles.count}>{t('contact.noOtherConversations')}</p>
				) : (
					<ul className={styles.otherConversations}>
						{others.map((other) => (
							<li key={other.id}>
								<Link to={withParams(pathname, search, { conversation: other.number, before: null, pane: null })} className={styles.otherConversation}>
									<span className={styles.rowTop}>
										<ChannelIcon kind={other.channel.kind} />
										<span dir="ltr">#{other.number}</span>
										<span className={styles.statusChip} data-status={other.status}>
											{t(`status.${other.status}`)}
										</span>
										<RelativeTime iso={other.lastActivityAt} className={styles.time} />
									</span>
									<span className={styles.excerptLine}>
										<bdi className={styles.lastFrom}>{other.channel.name}</bdi>
										{other.lastMessage ? (
											<span className={styles.excerpt} dir="auto">
												{other.lastMessage.excerpt}
											</span>
										) : null}
									</span>
								</Link>
							</li>
						))}
					</ul>
				)}
			</section>
		</div>
	)
}
