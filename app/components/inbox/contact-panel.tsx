import { Form, Link, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type ContactSatisfactionJson } from '#app/.server/api.ts'
import { LabelChips } from '#app/components/label-chip.tsx'
import { ContactRatings } from '#app/components/satisfaction/contact-ratings.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { type InboxTeam } from '#app/routes/$lang.dashboard.conversations.tsx'
import { type DashboardLoader } from '#app/routes/$lang.dashboard.tsx'
import { withParams, type Conversation } from '#app/utils/conversations.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { ChannelIcon } from './channel-icon.tsx'
import { Avatar, RelativeTime } from './parts.tsx'
import * as styles from './inbox.css.ts'

/** The contact pane: who the customer is, the conversation's facts and team, the contact's other conversations and ratings. */
export function ContactPanel({
	conversation,
	others,
	satisfaction,
	teams,
}: {
	conversation: Conversation
	others: Conversation[]
	satisfaction: ContactSatisfactionJson | null
	teams: InboxTeam[]
}) {
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
				<dt className={styles.term}>
					<label htmlFor="conversation-team">{t('team.label')}</label>
				</dt>
				<dd>
					<TeamForm conversation={conversation} teams={teams} />
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
			{satisfaction ? <ContactRatings satisfaction={satisfaction} /> : null}
		</div>
	)
}

/** The conversation's team, chosen like its priority: a select and its button (a post to the inbox's action, with or without JavaScript). */
function TeamForm({ conversation, teams }: { conversation: Conversation; teams: InboxTeam[] }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const current = conversation.team?.id ?? ''
	return (
		<Form method="post" className={styles.inlineForm} style={{ flexWrap: 'wrap' }}>
			<input type="hidden" name="intent" value="team" />
			<input type="hidden" name="number" value={conversation.number} />
			{/* Keyed by the team, so that a change from elsewhere (an event, the bulk action) shows. */}
			<select id="conversation-team" name="teamId" defaultValue={current} key={current} className={`${input} ${styles.compactInput}`}>
				<option value="">{t('team.none')}</option>
				{teams.map((team) => (
					<option key={team.id} value={team.id}>
						{team.name}
					</option>
				))}
				{/* A team deleted meanwhile, still named by the conversation until the page reloads. */}
				{conversation.team && !teams.some((team) => team.id === current) ? <option value={current}>{conversation.team.name}</option> : null}
			</select>
			<button type="submit" className={`${button.outline} ${styles.compactInput}`}>
				{t('team.submit')}
			</button>
		</Form>
	)
}
