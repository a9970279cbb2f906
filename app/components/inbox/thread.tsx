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
import { ChannelIcon } from './channel-icon.tsx'
import { Composer } from './composer.tsx'
import { useConversationLive } from './use-conversation-live.ts'
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
						<ChannelIcon kind={conversation.channel.kind} /> {conversation.contact.name} <span className={styles.count}>#{conversation.number}</span>
					</h2>
					<p className={styles.presence} aria-live="polite">
						{t(`status.${conversation.status}`)}
						{conversation.assignee ? ` · ${t('assignedTo', { name: conversation.assignee.name })}` : ` · ${t('unassigned')}`}
						{live.viewers.length ? ` · ${t('viewing', { names: live.viewers.map((viewer) => viewer.name).join(', ') })}` : ''}
					</p>
				</div>
				<HeaderActions conversation={conversation} members={members} labels={labels} />
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
				{typingNames.length ? t('typing', { names: typingNames.join(', ') }) : ''}
			</p>
			<Composer key={conversation.id} locale={locale} workspaceId={workspaceId} conversation={conversation} members={members} upload={upload} onTyping={live.typed} />
			{conversation.channel.kind === 'whatsapp' ? <TemplatePicker number={conversation.number} /> : null}
		</>
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
		// Values are stored as written; a moment (a snooze's end) is shown in the reader's language and the workspace's zone.
		const values = message.activity ? Object.fromEntries(Object.entries(message.activity.values).map(([name, value]) => [name, name === 'until' ? moment(value) : value])) : {}
		const line = message.activity ? tInbox(message.activity.key, values) : message.body
		return (
			<p className={styles.activity} data-kind="activity">
				{line} · <time dateTime={message.createdAt}>{time(message.createdAt)}</time>
			</p>
		)
	}
	const variant = message.kind === 'note' ? 'note' : message.direction
	const author = message.direction === 'incoming' ? contactName : (message.sender?.name ?? t('someone'))
	return (
		<article className={styles.message[variant]} data-kind={variant} aria-label={t(`from.${variant}`, { name: author })}>
			{message.kind === 'note' ? <span className={styles.noteMarker}>{t('privateNote')}</span> : null}
			{message.body ? <span dir="auto">{message.body}</span> : null}
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
function HeaderActions({ conversation, members, labels }: { conversation: Conversation; members: Member[]; labels: Label[] }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const actionData = useKeptActionData<typeof action>()
	const snoozeError = actionData && actionData.intent === 'snooze' ? actionData.error : null
	const number = String(conversation.number)
	const compact = `${input} ${styles.compactInput}`
	return (
		<div className={styles.actions}>
			{conversation.status === 'resolved' || conversation.status === 'snoozed' ? (
				<StatusButton number={number} status="open" label={t('actions.reopen')} primary />
			) : (
				<StatusButton number={number} status="resolved" label={t('actions.resolve')} primary id="resolve-form" />
			)}
			{conversation.status === 'pending' ? <StatusButton number={number} status="open" label={t('actions.reopen')} /> : null}
			{conversation.status === 'open' ? <StatusButton number={number} status="pending" label={t('actions.pending')} /> : null}

			<details className={styles.menu} open={snoozeError ? true : undefined}>
				<summary className={button.outline}>{t('actions.snooze')}</summary>
				<div className={styles.menuPanel}>
					{(['hour', 'tomorrow', 'week'] as const).map((preset) => (
						<Form method="post" key={preset}>
							<input type="hidden" name="intent" value="snooze" />
							<input type="hidden" name="number" value={number} />
							<input type="hidden" name="preset" value={preset} />
							<button type="submit" className={button.ghost} style={{ inlineSize: '100%', justifyContent: 'flex-start' }}>
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
						<input id="snooze-until" type="datetime-local" name="until" required className={compact} aria-invalid={snoozeError ? true : undefined} aria-describedby={snoozeError ? 'snooze-error' : undefined} />
						<button type="submit" className={button.outline}>
							{t('snooze.submit')}
						</button>
					</Form>
					{snoozeError ? (
						<p id="snooze-error" role="alert" className={styles.failed}>
							{snoozeError}
						</p>
					) : null}
				</div>
			</details>

			<Form method="post" className={styles.inlineForm}>
				<input type="hidden" name="intent" value="assign" />
				<input type="hidden" name="number" value={number} />
				<label htmlFor="assign-to" className="visually-hidden">
					{t('assign.label')}
				</label>
				<select id="assign-to" name="assigneeId" defaultValue={conversation.assignee?.id ?? ''} className={compact} key={conversation.assignee?.id ?? ''}>
					<option value="">{t('assign.nobody')}</option>
					{members.map((member) => (
						<option key={member.userId} value={member.userId}>
							{member.name}
						</option>
					))}
				</select>
				<button type="submit" className={button.outline}>
					{t('assign.submit')}
				</button>
			</Form>
			<Form method="post">
				<input type="hidden" name="intent" value="assign" />
				<input type="hidden" name="number" value={number} />
				<input type="hidden" name="assigneeId" value="me" />
				<button type="submit" className={button.ghost}>
					{t('assign.me')}
				</button>
			</Form>

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

			<details className={styles.menu}>
				<summary className={button.outline}>{t('labels.title')}</summary>
				<Form method="post" className={styles.menuPanel} key={conversation.labels.map((label) => label.id).join()}>
					<input type="hidden" name="intent" value="labels" />
					<input type="hidden" name="number" value={number} />
					{labels.length === 0 ? <p className={styles.count}>{t('labels.none')}</p> : null}
					{labels.map((label) => (
						<label key={label.id} className={styles.inlineForm}>
							<input type="checkbox" name="labelIds" value={label.id} defaultChecked={conversation.labels.some((chosen) => chosen.id === label.id)} />
							{label.title}
						</label>
					))}
					<button type="submit" className={button.outline}>
						{t('labels.save')}
					</button>
				</Form>
			</details>
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
