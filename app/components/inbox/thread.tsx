import { Form, Link, useLocation, useRouteLoaderData } from '@remix-run/react'
import { Fragment, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Attachments } from '#app/components/attachments.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { type action, type Member } from '#app/routes/$lang.dashboard.conversations.tsx'
import { type DashboardLoader } from '#app/routes/$lang.dashboard.tsx'
import { byDay, priorities, withParams, type Conversation, type Message, type MessagePage } from '#app/utils/conversations.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { type Label } from '#app/utils/labels.ts'
import { linkify } from '#app/components/link-chat/linkify.ts'
import { ChannelIcon } from './channel-icon.tsx'
import { Composer } from './composer.tsx'
import { useConversationLive } from './use-conversation-live.ts'
import { isolated } from '#app/utils/bidi.tsx'
import { Popover } from './popover.tsx'
import * as styles from './inbox.css.ts'
import { TemplatePicker } from './templates.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'

type Props = {
	locale: string
	/** The largest file an agent may attach, in bytes and as the hint says it. */
	upload: { maxBytes: number; megabytes: string }
	me: { userId: string; name: string }
	workspaceId: string
	conversation: Conversation
	thread: MessagePage
	members: Member[]
	labels: Label[]
	session: RealtimeSession | null
}

/** The open conversation: who is here and typing, the header's actions, the messages by day, the composer. */
export function Thread({ locale, upload, me, workspaceId, conversation, thread, members, labels, session }: Props) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const { pathname, search } = useLocation()
	const live = useConversationLive(session, conversation.id, me)
	const timeZone = useRouteLoaderData<DashboardLoader>('routes/$lang.dashboard')?.user?.workspace?.timezone ?? 'UTC'
	const older = new URLSearchParams(search).has('before')
	const end = useRef<HTMLDivElement>(null)
	const newest = thread.messages.at(-1)?.id
	// The newest message in view when the thread opens and when one arrives (not while reading older pages).
	useEffect(() => {
		if (!older) end.current?.scrollIntoView({ block: 'end' })
	}, [newest, older])
	const typingNames = [...live.typing.map((agent) => agent.name), ...(live.customerTyping ? [conversation.contact.name] : [])]
	return (
		<>
			<header className={styles.threadHeader}>
				<Link to={withParams(pathname, search, { conversation: null, before: null, pane: null })} className={`${button.ghost} ${styles.back}`}>
					{t('back')}
				</Link>
				<div className={styles.threadTitle}>
					<h2 className={styles.title} style={{ fontSize: '1.0625rem' }}>
						{/* The name and the number each in their own direction: "#25" stays "#25" beside an Arabic name. */}
						<ChannelIcon kind={conversation.channel.kind} /> <bdi>{conversation.contact.name}</bdi>{' '}
						<span className={styles.count} dir="ltr">
							#{conversation.number}
						</span>
					</h2>
					<p className={styles.presence} aria-live="polite">
						<span>{t(`status.${conversation.status}`)}</span>
						{' · '}
						{conversation.assignee ? isolated((values) => t('assignedTo', values), { name: conversation.assignee.name }) : t('unassigned')}
						{conversation.team ? (
							<>
								{' · '}
								{isolated((values) => t('inTeam', values), { name: conversation.team.name })}
							</>
						) : null}
						{live.viewers.length ? (
							<>
								{' · '}
								{isolated((values) => t('viewing', values), { names: <Names names={live.viewers.map((viewer) => viewer.name)} /> })}
							</>
						) : null}
					</p>
				</div>
				<HeaderActions conversation={conversation} members={members} labels={labels} me={me} />
				<Link to={withParams(pathname, search, { pane: 'contact' })} className={`${button.ghost} ${styles.contactLink}`}>
					{t('contact.title')}
				</Link>
			</header>
			<div className={styles.messages} role="log" aria-label={t('messages')} tabIndex={0}>
				{thread.olderCursor ? (
					<Link to={withParams(pathname, search, { before: thread.olderCursor })} className={button.ghost} style={{ alignSelf: 'center' }} preventScrollReset>
						{t('loadOlder')}
					</Link>
				) : null}
				{byDay(thread.messages, timeZone).map(({ day, messages }) => (
					<Fragment key={day}>
						<DayHeading iso={messages[0]!.createdAt} />
						{messages.map((message) => (
							<MessageItem key={message.id} locale={locale} message={message} contactName={conversation.contact.name} number={conversation.number} />
						))}
					</Fragment>
				))}
				{older ? (
					<Link to={withParams(pathname, search, { before: null })} className={button.ghost} style={{ alignSelf: 'center' }}>
						{t('newest')}
					</Link>
				) : null}
				<div ref={end} />
			</div>
			<p className={styles.typing} aria-live="polite">
				{typingNames.length ? isolated((values) => t('typing', values), { names: <Names names={typingNames} /> }) : ''}
			</p>
			<Composer
				key={conversation.id}
				locale={locale}
				workspaceId={workspaceId}
				conversation={conversation}
				members={members}
				upload={upload}
				onTyping={live.typed}
			/>
			{conversation.channel.kind === 'whatsapp' ? <TemplatePicker number={conversation.number} /> : null}
		</>
	)
}

/** Names written by people, each isolated, in a list. */
function Names({ names }: { names: string[] }) {
	return (
		<span>
			{names.map((name, index) => (
				<Fragment key={index}>
					{index > 0 ? ', ' : null}
					<bdi>{name}</bdi>
				</Fragment>
			))}
		</span>
	)
}

function DayHeading({ iso }: { iso: string }) {
	const format = useDateFormat({ dateStyle: 'full' })
	return <h3 className={styles.day}>{format(iso)}</h3>
}

function MessageItem({ locale, message, contactName, number }: { locale: string; message: Message; contactName: string; number: number }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const { t: tInbox } = useTranslation('inbox')
	const time = useDateFormat({ timeStyle: 'short' })
	const moment = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	if (message.kind === 'activity') {
		// Values are stored as written (names, label titles: each isolated); a moment (a snooze's end) is shown in the
		// reader's language and the workspace's zone.
		const { activity } = message
		const values = activity ? Object.fromEntries(Object.entries(activity.values).map(([name, value]) => [name, name === 'until' ? moment(value) : value])) : {}
		return (
			<p className={styles.activity} data-kind="activity">
				{activity ? isolated((placeholders) => tInbox(activity.key, placeholders), values) : <bdi>{message.body}</bdi>} ·{' '}
				<bdi>
					<time dateTime={message.createdAt}>{time(message.createdAt)}</time>
				</bdi>
			</p>
		)
	}
	const variant = message.kind === 'note' ? 'note' : message.direction
	const author = message.direction === 'incoming' ? contactName : (message.sender?.name ?? t('someone'))
	return (
		<article className={styles.message[variant]} data-kind={variant} aria-label={t(`from.${variant}`, { name: author })}>
			{message.kind === 'note' ? <span className={styles.noteMarker}>{t('privateNote')}</span> : null}
			{message.body ? (
				<span dir="auto">
					<MessageText text={message.body} />
				</span>
			) : null}
			<Attachments attachments={message.attachments} hrefOf={(id) => `/${locale}/dashboard/attachments/${id}`} />
			<span className={styles.messageMeta}>
				{message.direction === 'outgoing' ? <span>{author}</span> : null}
				<time dateTime={message.createdAt}>{time(message.createdAt)}</time>
				{message.kind === 'text' && message.direction === 'outgoing' && message.status ? <Delivery status={message.status} error={message.error} /> : null}
			</span>
			{message.status === 'failed' ? (
				<Form method="post" className={styles.retry}>
					<input type="hidden" name="intent" value="retry" />
					<input type="hidden" name="number" value={number} />
					<input type="hidden" name="messageId" value={message.id} />
					<button type="submit" className={button.outline}>
						{t('actions.retry')}
					</button>
				</Form>
			) : null}
		</article>
	)
}

/** A message's text as text (React escapes it: HTML is shown, never rendered); its http(s) links open in a new tab without referrer. */
function MessageText({ text }: { text: string }) {
	return linkify(text).map((part, index) =>
		'href' in part ? (
			<a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow" className={styles.messageLink}>
				{part.text}
			</a>
		) : (
			<Fragment key={index}>{part.text}</Fragment>
		),
	)
}

// ✓ sent, ✓✓ delivered, blue ✓✓ read, ! failed (with the provider's reason).
const ticks = { pending: '🕓', sent: '✓', delivered: '✓✓', read: '✓✓', failed: '!' } as const

function Delivery({ status, error }: { status: keyof typeof ticks; error: string | null }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const label = status === 'failed' && error ? t('delivery.failedWith', { error }) : t(`delivery.${status}`)
	return (
		<span title={label} className={status === 'failed' ? styles.failed : undefined} style={status === 'read' ? { color: 'hsl(199 89% 70%)' } : undefined}>
			<span aria-hidden="true">{ticks[status]}</span>
			<span className="visually-hidden">{label}</span>
			{status === 'failed' ? <span> {label}</span> : null}
		</span>
	)
}

/** Assign, status (resolve, pending, reopen, snooze), priority and labels: plain forms, so they work without JavaScript. */
function HeaderActions({ conversation, members, labels, me }: { conversation: Conversation; members: Member[]; labels: Label[]; me: { userId: string } }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const actionData = useKeptActionData<typeof action>()
	const snoozeError = actionData && actionData.intent === 'snooze' ? actionData.error : null
	const number = String(conversation.number)
	const compact = `${input} ${styles.compactInput}`
	return (
		<div className={styles.actions}>
			{/* Every status but resolved may be resolved at once, a snoozed one too (no need to reopen it first). */}
			{conversation.status === 'resolved' ? (
				<StatusButton number={number} status="open" label={t('actions.reopen')} primary />
			) : (
				<StatusButton number={number} status="resolved" label={t('actions.resolve')} primary id="resolve-form" />
			)}
			{conversation.status === 'pending' || conversation.status === 'snoozed' ? (
				<StatusButton number={number} status="open" label={t('actions.reopen')} />
			) : null}
			{conversation.status === 'open' || conversation.status === 'snoozed' ? (
				<StatusButton number={number} status="pending" label={t('actions.pending')} />
			) : null}

			<Popover label={t('actions.snooze')} open={Boolean(snoozeError)} summaryClassName={button.outline}>
				{(['hour', 'tomorrow', 'week'] as const).map((preset) => (
					<Form method="post" key={preset}>
						<input type="hidden" name="intent" value="snooze" />
						<input type="hidden" name="number" value={number} />
						<input type="hidden" name="preset" value={preset} />
						<button type="submit" className={`${button.ghost} ${styles.menuItem}`}>
							{t(`snooze.${preset}`)}
						</button>
					</Form>
				))}
				<Form method="post" className={styles.inlineForm}>
					<input type="hidden" name="intent" value="snooze" />
					<input type="hidden" name="number" value={number} />
					<label htmlFor="snooze-until" className="visually-hidden">
						{t('snooze.until')}
					</label>
					<input
						id="snooze-until"
						type="datetime-local"
						name="until"
						required
						className={compact}
						aria-invalid={snoozeError ? true : undefined}
						aria-describedby={snoozeError ? 'snooze-error' : undefined}
					/>
					<button type="submit" className={button.outline}>
						{t('snooze.submit')}
					</button>
				</Form>
				{snoozeError ? (
					<p id="snooze-error" role="alert" className={styles.failed}>
						{snoozeError}
					</p>
				) : null}
			</Popover>

			{conversation.assignee?.id === me.userId ? null : (
				<Form method="post">
					<input type="hidden" name="intent" value="assign" />
					<input type="hidden" name="number" value={number} />
					<input type="hidden" name="assigneeId" value="me" />
					<button type="submit" className={button.ghost}>
						{t('assign.me')}
					</button>
				</Form>
			)}
			<Popover label={t('assign.submit')} summaryClassName={button.outline}>
				<Form method="post" className={styles.menuList} aria-label={t('assign.label')}>
					<input type="hidden" name="intent" value="assign" />
					<input type="hidden" name="number" value={number} />
					{[...members.map((member) => ({ id: member.userId, name: member.name })), { id: '', name: null }].map((choice) => {
						const current = (conversation.assignee?.id ?? '') === choice.id
						return (
							<button key={choice.id} type="submit" name="assigneeId" value={choice.id} className={`${button.ghost} ${styles.menuItem}`} aria-pressed={current}>
								<span aria-hidden="true" className={styles.menuCheck}>
									{current ? '✓' : ''}
								</span>
								{choice.name === null ? t('assign.nobody') : <bdi>{choice.name}</bdi>}
							</button>
						)
					})}
				</Form>
			</Popover>

			<Form method="post" className={styles.inlineForm}>
				<input type="hidden" name="intent" value="priority" />
				<input type="hidden" name="number" value={number} />
				<label htmlFor="priority" className="visually-hidden">
					{t('filters.priority')}
				</label>
				<select id="priority" name="priority" defaultValue={conversation.priority} className={compact} key={conversation.priority}>
					{priorities.map((priority) => (
						<option key={priority} value={priority}>
							{t(`priority.${priority}`)}
						</option>
					))}
				</select>
				<button type="submit" className={button.outline}>
					{t('priority.submit')}
				</button>
			</Form>

			<Popover label={t('labels.title')} summaryClassName={button.outline}>
				<Form method="post" className={styles.menuList} key={conversation.labels.map((label) => label.id).join()}>
					<input type="hidden" name="intent" value="labels" />
					<input type="hidden" name="number" value={number} />
					{labels.length === 0 ? <p className={styles.count}>{t('labels.none')}</p> : null}
					{labels.map((label) => (
						<label key={label.id} className={styles.inlineForm}>
							<input type="checkbox" name="labelIds" value={label.id} defaultChecked={conversation.labels.some((chosen) => chosen.id === label.id)} />
							<bdi>{label.title}</bdi>
						</label>
					))}
					<button type="submit" className={button.outline}>
						{t('labels.save')}
					</button>
				</Form>
			</Popover>
		</div>
	)
}

function StatusButton({ number, status, label, primary, id }: { number: string; status: string; label: string; primary?: boolean; id?: string }) {
	return (
		<Form method="post" id={id}>
			<input type="hidden" name="intent" value="status" />
			<input type="hidden" name="number" value={number} />
			<input type="hidden" name="status" value={status} />
			<button type="submit" className={primary ? button.primary : button.outline}>
				{label}
			</button>
		</Form>
	)
}
