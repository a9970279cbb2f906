import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError, type ApiClient, type MessageTemplate } from '#app/.server/api.ts'
import { listOrToast, refusalToast, requireUser, rethrowApiError } from '#app/.server/session.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { lastEvent } from '#app/.server/live.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { fileTooLarge, megabytes, readForm } from '#app/.server/uploads.ts'
import { serverI18n, serverT } from '#app/i18n/i18n.server.ts'
import { ContactPanel } from '#app/components/inbox/contact-panel.tsx'
import { ConversationList } from '#app/components/inbox/conversation-list.tsx'
import * as styles from '#app/components/inbox/inbox.css.ts'
import { Shortcuts } from '#app/components/inbox/shortcuts.tsx'
import { Thread } from '#app/components/inbox/thread.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { type Label } from '#app/utils/labels.ts'
import {
	inboxQuery,
	priorities,
	selectedNumber,
	snoozePresets,
	snoozeUntil,
	statuses,
	zonedTime,
	type Conversation,
	type ConversationPage,
	type MessagePage,
} from '#app/utils/conversations.ts'
import { languageOf, type Locale } from '#locales/languages.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useLiveData } from '#app/realtime/use-workspace-events.ts'
import { mergeInboxEvent } from '#app/utils/live-inbox.ts'
import { type DashboardLoader } from './$lang.dashboard.tsx'

// Conversations and messages merge into the page (useLiveData); these reload it, rarely as they come.
export const handle = { i18n: ['inbox'], live: ['label.', 'contact.updated', 'contact.deleted', 'contact.merged'] }

export type Member = { userId: string; name: string; email: string }
export type Channel = { id: string; kind: string; name: string }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** The inbox's words for a loader or an action (`inbox:ui.…`). */
async function inboxT(locale: Locale) {
	return (await serverI18n(locale)).getFixedT(languageOf(locale).tag, 'inbox', 'ui')
}

/** A list the page can do without (channels before any exist, members): empty when the API refuses it. */
async function optional<T>(load: Promise<T>, empty: T, locale: Locale, request: Request): Promise<T> {
	try {
		return await load
	} catch (error) {
		if (error instanceof ApiError && error.statusCode !== 401 && error.statusCode < 500) return empty
		return rethrowApiError(error, locale, request)
	}
}

// How many of the contact's other conversations the contact panel lists.
const otherConversationsShown = 10

/** The open conversation and a page of its thread (the newest, or older than `before`); marks it read. */
async function openConversation(api: ApiClient, base: string, number: number, before: string | null) {
	try {
		const [conversation, thread] = await Promise.all([
			api.get<Conversation>(`${base}/conversations/${number}`),
			api.get<MessagePage>(`${base}/conversations/${number}/messages`, { before: before || undefined, limit: 30 }),
		])
		const [others] = await Promise.all([
			// The contact's other conversations, for the contact panel; it does without them when they cannot be read.
			api
				.get<ConversationPage>(`${base}/conversations`, { contactId: conversation.contact.id, status: 'all', limit: otherConversationsShown + 1 })
				.then((page) => page.conversations.filter((other) => other.id !== conversation.id).slice(0, otherConversationsShown))
				.catch(() => []),
			// Opening a conversation is reading it: the unread badge goes (for this member only).
			conversation.unreadCount > 0 ? api.post(`${base}/conversations/${number}/read`) : null,
		])
		return { conversation: { ...conversation, unreadCount: 0 }, thread, others, missing: false }
	} catch (error) {
		if (error instanceof ApiError && (error.statusCode === 404 || error.statusCode === 400)) return { conversation: null, thread: null, others: [], missing: true }
		throw error
	}
}

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const query = inboxQuery(url.searchParams)
	const number = selectedNumber(url.searchParams)
	const base = `/workspaces/${user.workspace.id}`
	const t = await inboxT(locale)
	const emptyPage: ConversationPage = { conversations: [], nextCursor: null, counts: { open: 0, pending: 0, resolved: 0, snoozed: 0 }, countsLimit: null }
	// Read before the data: the events after it are what the page merges.
	const since = await lastEvent(api, user.workspace.id)
	const [{ list: page, failure }, labels, members, channels, opened] = await Promise.all([
		listOrToast(
			api.get<ConversationPage>(`${base}/conversations`, {
				status: query.status,
				assignee: query.assignee,
				channelId: query.channelId || undefined,
				labelId: query.labelId || undefined,
				priority: query.priority || undefined,
				search: query.search || undefined,
				sort: query.sort,
				after: query.after || undefined,
				limit: 25,
			}),
			emptyPage,
			{ locale, request: args.request, title: t('loadFailed') },
		),
		optional(api.get<{ labels: Label[] }>(`${base}/labels`).then((answer) => answer.labels), [], locale, args.request),
		optional(api.get<{ members: Member[] }>(`${base}/members`, { limit: 100 }).then((answer) => answer.members), [], locale, args.request),
		optional(api.get<{ channels: Channel[] }>(`${base}/channels`).then((answer) => answer.channels), [], locale, args.request),
		number === null ? null : openConversation(api, base, number, url.searchParams.get('before')).catch((error: unknown) => rethrowApiError(error, locale, args.request)),
	])
	// WhatsApp's approved templates, asked of Meta only when the agent asks for them (`?templates`).
	const channel = opened?.conversation?.channel
	const templates =
		channel?.kind === 'whatsapp' && url.searchParams.has('templates')
			? await optional(api.get<{ templates: MessageTemplate[] }>(`${base}/channels/${channel.id}/templates`).then((answer) => answer.templates), [], locale, args.request)
			: null
	return {
		now: Date.now(),
		upload: { maxBytes: args.context.config.UPLOAD_MAX_BYTES, megabytes: megabytes(args.context.config.UPLOAD_MAX_BYTES, languageOf(locale).tag) },
		title: opened?.conversation ? t('titleOf', { number: opened.conversation.number, name: opened.conversation.contact.name }) : t('title'),
		locale,
		me: { userId: user.id, name: user.name },
		workspaceId: user.workspace.id,
		since,
		query,
		page,
		labels,
		members,
		channels,
		conversation: opened?.conversation ?? null,
		thread: opened?.thread ?? null,
		otherConversations: opened?.others ?? [],
		missing: opened?.missing ?? false,
		templates,
		failure,
	}
}

export type InboxLoader = typeof loader

type ActionResult = { intent: 'reply'; error: string; body: string; kind: 'text' | 'note' } | { intent: 'snooze'; error: string }

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const maxBytes = args.context.config.UPLOAD_MAX_BYTES
	const form = await readForm(request, maxBytes)
	const field = (name: string) => String(form.get(name) ?? '')
	const intent = field('intent')
	const t = await inboxT(locale)
	const common = await serverT(locale)
	const url = new URL(request.url)
	const back = url.pathname + url.search
	const base = `/workspaces/${user.workspace.id}/conversations`
	const number = Number(field('number'))
	const refused = (title: string) => (error: unknown) => refusalToast(error, { locale, request, to: back, title })
	const timeZone = user.workspace.timezone

	if (intent === 'bulk') {
		// "Select all" ticked: the page's conversations, whichever rows are ticked (without JavaScript it ticks nothing else).
		const numbers = form.getAll(field('all') === 'page' ? 'page' : 'numbers').map(Number).filter(Number.isInteger)
		const [kind = '', value = ''] = field('bulk').split(':')
		if (numbers.length === 0) return redirectWithToast(back, { type: 'warning', title: t('bulk.none') })
		const body =
			kind === 'assign'
				? { action: 'assign', assigneeId: value === 'me' ? user.id : value || null }
				: kind === 'status'
					? { action: 'status', status: value }
					: { action: kind, labelId: value }
		return api
			.post<{ updated: number }>(`${base}/bulk`, { numbers: numbers.slice(0, 100), ...body })
			.then(({ updated }) => redirectWithToast(back, { type: 'success', title: t('bulk.done', { count: updated }) }))
			.catch(refused(t('bulk.failed')))
	}

	if (!Number.isInteger(number) || number < 1) return redirectWithToast(back, { type: 'error', title: t('notFound') })
	const path = `${base}/${number}`

	if (intent === 'reply') {
		const body = field('body').trim()
		const kind = field('kind') === 'note' ? 'note' : 'text'
		const file = form.get('file')
		if (file === fileTooLarge) return data<ActionResult>({ intent: 'reply', error: t('composer.fileTooLarge', { max: megabytes(maxBytes, languageOf(locale).tag) }), body: field('body'), kind }, { status: 413 })
		const attached = file instanceof File && file.name ? file : null
		if (!body && !attached) return data<ActionResult>({ intent: 'reply', error: common('forms.required'), body: field('body'), kind }, { status: 400 })
		try {
			if (attached) {
				// The API reads the file itself (its type, its size against the same limit) and keeps it.
				const upload = new FormData()
				upload.set('kind', kind)
				upload.set('body', body)
				upload.set('file', attached, attached.name)
				await api.postForm(`${path}/messages`, upload)
			} else await api.post(`${path}/messages`, { kind, body })
		} catch (error) {
			const failed = await apiFailure(error, locale, request)
			return data<ActionResult>({ intent: 'reply', error: failed.message, body: field('body'), kind }, { status: failed.status })
		}
		// A reply may be sent again from the same page: a redirect keeps the browser from posting it twice on reload.
		return redirect(back)
	}

	if (intent === 'retry') {
		return api.post(`${path}/messages/${encodeURIComponent(field('messageId'))}/retry`).then(() => redirect(back), refused(t('retryFailed')))
	}

	if (intent === 'template') {
		const template = { name: field('name'), language: field('language'), parameters: form.getAll('parameters').map((value) => String(value).trim()) }
		// Sent, the picker closes.
		const next = new URL(back, url)
		next.searchParams.delete('templates')
		return api.post(`${path}/messages`, { kind: 'template', template }).then(() => redirect(next.pathname + next.search), refused(t('templates.failed')))
	}

	if (intent === 'labels') {
		const labelIds = form.getAll('labelIds').map(String)
		return api.put(`${path}/labels`, { labelIds }).then(() => redirect(back), refused(t('labels.failed')))
	}

	// Assignment, status and priority are all a PATCH of the conversation.
	let changes: Record<string, unknown>
	if (intent === 'assign') changes = { assigneeId: field('assigneeId') === 'me' ? user.id : field('assigneeId') || null }
	else if (intent === 'priority') changes = { priority: priorities.find((value) => value === field('priority')) ?? field('priority') }
	else if (intent === 'status') changes = { status: statuses.find((value) => value === field('status')) ?? field('status') }
	else if (intent === 'snooze') {
		const preset = snoozePresets.find((value) => value === field('preset'))
		const until = preset ? snoozeUntil(preset, timeZone) : zonedTime(field('until'), timeZone)
		if (!until || until.getTime() <= Date.now()) return data<ActionResult>({ intent: 'snooze', error: t('snooze.future') }, { status: 400 })
		changes = { status: 'snoozed', snoozedUntil: until.toISOString() }
	} else return redirectWithToast(back, { type: 'error', title: t('unknownAction') })
	return api.patch(path, changes).then(() => redirect(back), refused(t('updateFailed')))
}

export default function Conversations() {
	const loaded = useLoaderData<typeof loader>()
	// The list, its counts and the open thread follow the workspace's events (app/utils/live-inbox.ts).
	const inboxData = useMemo(() => ({ page: loaded.page, conversation: loaded.conversation, thread: loaded.thread }), [loaded])
	const inView = useMemo(() => ({ query: loaded.query, me: loaded.me.userId }), [loaded])
	const loaderData = { ...loaded, ...useLiveData(inboxData, loaded.since, inView, mergeInboxEvent) }
	const { conversation, thread, missing, failure, workspaceId, otherConversations } = loaderData
	const shell = useRouteLoaderData<DashboardLoader>('routes/$lang.dashboard')
	const { t: commonT } = useTranslation()
	const { t, ready } = useTranslation('inbox', { keyPrefix: 'ui' })
	const location = useLocation()
	const params = new URLSearchParams(location.search)
	const view = conversation ? (params.get('pane') === 'contact' ? 'contact' : 'thread') : 'list'
	const session = shell?.realtime && shell.user ? { config: shell.realtime, userId: shell.user.id } : null
	// Reached by a link before the dashboard preloaded the inbox's words: they come in a moment (a clientLoader
	// waiting for them would cost a second request on every revalidation). Once shown, the inbox stays: a later
	// load of the namespace (a notification's) turns `ready` false for a moment, which would unmount the composer.
	const [shown, setShown] = useState(ready)
	if (ready && !shown) setShown(true)
	if (!shown) return <p role="status">{commonT('app.loading')}</p>
	return (
		<>
			<ToastMessage toast={failure} />
			<h1 className="visually-hidden">{t('title')}</h1>
			<div className={styles.inbox} data-view={view}>
				<ConversationList {...loaderData} selected={conversation?.number ?? null} />
				<section className={styles.pane} data-pane="thread" aria-label={conversation ? t('threadOf', { name: conversation.contact.name }) : t('thread')}>
					{conversation && thread ? (
						<Thread key={conversation.id} {...loaderData} conversation={conversation} thread={thread} session={session} workspaceId={workspaceId} />
					) : (
						<p className={styles.empty}>{missing ? t('notFound') : t('pick')}</p>
					)}
				</section>
				<aside className={styles.pane} data-pane="contact" aria-label={t('contact.title')}>
					{conversation ? <ContactPanel conversation={conversation} others={otherConversations} /> : null}
				</aside>
			</div>
			<Shortcuts />
		</>
	)
}
