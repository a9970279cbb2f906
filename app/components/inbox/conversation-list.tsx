import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LabelChips } from '#app/components/label-chip.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { type Channel, type InboxTeam, type Member } from '#app/routes/$lang.dashboard.conversations.tsx'
import { priorities, sorts, statuses, withParams, type Conversation, type ConversationPage, type InboxQuery } from '#app/utils/conversations.ts'
import { type Label } from '#app/utils/labels.ts'
import { ChannelIcon } from './channel-icon.tsx'
import { isolated } from '#app/utils/bidi.tsx'
import { Avatar, RelativeTime } from './parts.tsx'
import { Popover } from './popover.tsx'
import * as styles from './inbox.css.ts'

type Props = {
	locale: string
	query: InboxQuery
	page: ConversationPage
	labels: Label[]
	members: Member[]
	channels: Channel[]
	teams: InboxTeam[]
	selected: number | null
	me: { userId: string }
}

/** The list pane: status tabs with counts, filters, the conversations (links) with bulk actions, keyset pages. */
export function ConversationList({ locale, query, page, labels, members, channels, teams, selected, me }: Props) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const { pathname, search } = useLocation()
	const to = (changes: Record<string, string | number | null>) => withParams(pathname, search, changes)
	// How many of the filters and the order differ from the defaults: the Filters button says so.
	const active = [query.team, query.channelId, query.labelId, query.priority, query.assignee !== 'all', query.sort !== 'activity'].filter(Boolean).length
	const filtered = active > 0 || Boolean(query.search)
	return (
		<section className={styles.pane} data-pane="list" aria-labelledby="inbox-list-title">
			<div className={styles.paneHeader}>
				{/* The sidebar and the page title say where this is: the room goes to the conversations. */}
				<h2 id="inbox-list-title" className="visually-hidden">
					{t('title')}
				</h2>
				<nav className={styles.tabs} aria-label={t('tabs')}>
					{statuses.map((status) => (
						<Link
							key={status}
							to={to({ status, after: null, conversation: null, before: null })}
							className={styles.tab}
							aria-current={query.status === status ? 'page' : undefined}
						>
							{t(`status.${status}`)}{' '}
							<span className={styles.count} dir="ltr">
								{page.countsLimit !== null && page.counts[status] >= page.countsLimit ? t('countAtLeast', { count: page.countsLimit }) : page.counts[status]}
							</span>
						</Link>
					))}
				</nav>
				{/* Keyed by the filter, so a link that changes it also resets the fields. */}
				<Form method="get" role="search" className={styles.searchRow} key={JSON.stringify(query)}>
					<input type="hidden" name="status" value={query.status} />
					<label htmlFor="inbox-search" className="visually-hidden">
						{t('filters.search')}
					</label>
					<input
						id="inbox-search"
						type="search"
						name="search"
						defaultValue={query.search}
						className={`${input} ${styles.compactInput} ${styles.searchInput}`}
						placeholder={t('filters.searchHint')}
					/>
					<button type="submit" className={`${button.outline} ${styles.compactInput}`}>
						{t('filters.submitSearch')}
					</button>
					<Popover
						label={
							<>
								{t('filters.toggle')}
								{active ? (
									<span className={styles.badge} aria-label={t('filters.active', { count: active })}>
										{active}
									</span>
								) : null}
							</>
						}
						summaryClassName={`${button.outline} ${styles.compactInput}`}
					>
						<div className={styles.filters}>
							<Select id="inbox-assignee" label={t('filters.assignee')} name="assignee" value={query.assignee}>
								<option value="all">{t('filters.everyone')}</option>
								<option value="me">{t('filters.mine')}</option>
								<option value="unassigned">{t('filters.unassigned')}</option>
								{members.map((member) => (
									<option key={member.userId} value={member.userId}>
										{member.name}
									</option>
								))}
							</Select>
							<Select id="inbox-team" label={t('filters.team')} name="team" value={query.team}>
								<option value="">{t('filters.anyTeam')}</option>
								<option value="mine">{t('filters.myTeams')}</option>
								{teams.map((team) => (
									<option key={team.id} value={team.id}>
										{team.name}
									</option>
								))}
							</Select>
							<Select id="inbox-channel" label={t('filters.channel')} name="channelId" value={query.channelId}>
								<option value="">{t('filters.anyChannel')}</option>
								{channels.map((channel) => (
									<option key={channel.id} value={channel.id}>
										{channel.name}
									</option>
								))}
							</Select>
							<Select id="inbox-label" label={t('filters.label')} name="labelId" value={query.labelId}>
								<option value="">{t('filters.anyLabel')}</option>
								{labels.map((label) => (
									<option key={label.id} value={label.id}>
										{label.title}
									</option>
								))}
							</Select>
							<Select id="inbox-priority" label={t('filters.priority')} name="priority" value={query.priority}>
								<option value="">{t('filters.anyPriority')}</option>
								{priorities.map((priority) => (
									<option key={priority} value={priority}>
										{t(`priority.${priority}`)}
									</option>
								))}
							</Select>
							<Select id="inbox-sort" label={t('filters.sort')} name="sort" value={query.sort}>
								{sorts.map((sort) => (
									<option key={sort} value={sort}>
										{t(`sort.${sort}`)}
									</option>
								))}
							</Select>
						</div>
						<div className={styles.actions}>
							<button type="submit" className={`${button.primary} ${styles.compactInput}`}>
								{t('filters.apply')}
							</button>
							{filtered ? (
								<Link to={`/${locale}/dashboard/conversations?status=${query.status}`} className={styles.tab}>
									{t('filters.clear')}
								</Link>
							) : null}
						</div>
					</Popover>
				</Form>
			</div>
			{page.conversations.length === 0 ? (
				<p className={styles.empty}>{filtered ? t('noMatch') : t(`empty.${query.status === 'all' ? 'open' : query.status}`)}</p>
			) : (
				<Form method="post" className={styles.bulkForm} onChange={syncSelection}>
					<input type="hidden" name="intent" value="bulk" />
					{page.conversations.map((conversation) => (
						<input key={conversation.id} type="hidden" name="page" value={conversation.number} />
					))}
					<div className={`${styles.bulk} ${styles.paneHeader}`}>
						<label className={styles.selectAll}>
							<input type="checkbox" name="all" value="page" />
							{t('bulk.all', { count: page.conversations.length })}
						</label>
						{/* Shown once a conversation is ticked (by CSS, so without JavaScript too). */}
						<span className={styles.bulkActions}>
							<label htmlFor="inbox-bulk" className="visually-hidden">
								{t('bulk.label')}
							</label>
							<select id="inbox-bulk" name="bulk" className={`${input} ${styles.compactInput}`} style={{ inlineSize: 'auto', flex: 1, minInlineSize: 0 }}>
								<optgroup label={t('bulk.assign')}>
									<option value="assign:me">{t('assign.me')}</option>
									{members.map((member) => (
										<option key={member.userId} value={`assign:${member.userId}`}>
											{member.name}
										</option>
									))}
									<option value="assign:">{t('assign.nobody')}</option>
								</optgroup>
								{teams.length ? (
									<optgroup label={t('bulk.team')}>
										{teams.map((team) => (
											<option key={team.id} value={`team:${team.id}`}>
												{team.name}
											</option>
										))}
										<option value="team:">{t('team.none')}</option>
									</optgroup>
								) : null}
								<optgroup label={t('bulk.status')}>
									{statuses
										.filter((status) => status !== 'snoozed')
										.map((status) => (
											<option key={status} value={`status:${status}`}>
												{t(`status.${status}`)}
											</option>
										))}
								</optgroup>
								{labels.length ? (
									<>
										<optgroup label={t('bulk.addLabel')}>
											{labels.map((label) => (
												<option key={label.id} value={`addLabel:${label.id}`}>
													+ {label.title}
												</option>
											))}
										</optgroup>
										<optgroup label={t('bulk.removeLabel')}>
											{labels.map((label) => (
												<option key={label.id} value={`removeLabel:${label.id}`}>
													− {label.title}
												</option>
											))}
										</optgroup>
									</>
								) : null}
							</select>
							<button type="submit" className={`${button.outline} ${styles.compactInput}`}>
								{t('bulk.apply')}
							</button>
						</span>
					</div>
					<div className={styles.listScroll}>
						<ul className={styles.list} aria-label={t('list')}>
							{page.conversations.map((conversation) => (
								<Row
									key={conversation.id}
									conversation={conversation}
									to={to({ conversation: conversation.number, before: null, pane: null })}
									current={conversation.number === selected}
									myId={me.userId}
								/>
							))}
						</ul>
						<Pager query={query} page={page} to={to} />
					</div>
				</Form>
			)}
			{page.conversations.length === 0 ? <Pager query={query} page={page} to={to} /> : null}
		</section>
	)
}

/** The first and the next page; at the end of the list, scrolled with it, so that the rows keep the room. */
function Pager({ query, page, to }: { query: InboxQuery; page: ConversationPage; to: (changes: Record<string, string | number | null>) => string }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	if (!query.after && !page.nextCursor) return null
	return (
		<nav className={styles.pager} aria-label={t('pages')}>
			<span>{query.after ? <Link to={to({ after: null })}>{t('firstPage')}</Link> : null}</span>
			{page.nextCursor ? (
				<Link to={to({ after: page.nextCursor })} rel="next" className={button.outline}>
					{t('nextPage')}
				</Link>
			) : null}
		</nav>
	)
}

/**
 * With JavaScript, "select all" ticks and unticks the rows, and a row unticked makes it partly ticked (so the
 * ticked rows are what is sent). Without it, the server takes "select all" as every row of the page.
 */
function syncSelection(event: React.FormEvent<HTMLFormElement>) {
	const changed = event.target
	if (!(changed instanceof HTMLInputElement) || changed.type !== 'checkbox') return
	const form = event.currentTarget
	const rows = [...form.querySelectorAll<HTMLInputElement>('input[name="numbers"]')]
	const all = form.querySelector<HTMLInputElement>('input[name="all"]')
	if (!all) return
	if (changed === all) for (const row of rows) row.checked = all.checked
	const ticked = rows.filter((row) => row.checked).length
	all.checked = ticked > 0 && ticked === rows.length
	all.indeterminate = ticked > 0 && ticked < rows.length
}

function Select({ id, label, name, value, children }: { id: string; label: string; name: string; value: string; children: React.ReactNode }) {
	return (
		<div className={styles.filter}>
			<label htmlFor={id}>{label}</label>
			<select id={id} name={name} defaultValue={value} className={`${input} ${styles.compactInput}`}>
				{children}
			</select>
		</div>
	)
}

/** Who wrote the last message, before its excerpt: nobody for the customer's, "You" for the reader's own, else the agent by name. */
function LastFrom({ lastMessage, myId }: { lastMessage: NonNullable<Conversation['lastMessage']>; myId: string }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	if (lastMessage.direction === 'incoming') return null
	const { sender } = lastMessage
	return (
		<span className={styles.lastFrom}>
			{sender === null
				? t('lastFrom.outgoing')
				: sender.id === myId
					? t('lastFrom.me')
					: isolated((values) => t('lastFrom.member', values), { name: sender.name })}
		</span>
	)
}

function Row({ conversation, to, current, myId }: { conversation: Conversation; to: string; current: boolean; myId: string }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const { contact, lastMessage } = conversation
	return (
		<li className={styles.row} aria-current={current ? 'true' : undefined} data-conversation={conversation.number}>
			<input
				type="checkbox"
				name="numbers"
				value={conversation.number}
				aria-label={t('bulk.select', { name: contact.name, number: conversation.number })}
				style={{ marginBlockStart: '0.625rem' }}
			/>
			<Avatar name={contact.name} color={contact.avatarColor} />
			<Link to={to} className={styles.rowLink} preventScrollReset>
				<span className={styles.rowTop}>
					<ChannelIcon kind={conversation.channel.kind} />
					<span className={styles.name} dir="auto">
						{contact.name}
					</span>
					<RelativeTime iso={conversation.lastActivityAt} className={styles.time} />
					{conversation.unreadCount > 0 && !current ? (
						<span className={styles.unread} aria-label={t('unread', { count: conversation.unreadCount })}>
							{conversation.unreadCount}
						</span>
					) : null}
				</span>
				{/* The excerpt is its own box in its own direction, so that an English one in the Arabic inbox is cut at its end, not its start. */}
				<span className={styles.excerptLine}>
					{lastMessage ? <LastFrom lastMessage={lastMessage} myId={myId} /> : null}
					<span className={styles.excerpt} dir={lastMessage ? 'auto' : undefined}>
						{lastMessage ? lastMessage.excerpt : t('noMessages')}
					</span>
				</span>
				<span className={styles.meta}>
					<span dir="ltr">#{conversation.number}</span>
					<span>{conversation.assignee ? isolated((values) => t('assignedTo', values), { name: conversation.assignee.name }) : t('unassigned')}</span>
					{conversation.team ? <span>{isolated((values) => t('inTeam', values), { name: conversation.team.name })}</span> : null}
					{conversation.priority !== 'none' ? <span>{t(`priority.${conversation.priority}`)}</span> : null}
					<LabelChips labels={conversation.labels} />
				</span>
			</Link>
		</li>
	)
}
