import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation, useRouteLoaderData, type ClientLoaderFunctionArgs, type ShouldRevalidateFunction } from '@remix-run/react'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type ChannelJson, type MemberJson } from '#app/.server/api.ts'
import { listChannels } from '#app/.server/channels.ts'
import {
	bulkConversations,
	inboxTeams,
	listConversations,
	replaceConversationLabels,
	retryMessage,
	sendMessage,
	updateConversation,
} from '#app/.server/conversations.ts'
import { inboxT, openedPart, optional } from '#app/.server/inbox.ts'
import { listLabels } from '#app/.server/labels.ts'
import { firstMembers } from '#app/.server/members.ts'
import type { ThreadPart } from './$lang.dashboard.conversations_.thread.tsx'
import { listOrToast, refusalToast, requireUser } from '#app/.server/session.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { lastEvent } from '#app/.server/live.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { fileTooLarge, megabytes, readForm } from '#app/.server/uploads.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { ContactPanel } from '#app/components/inbox/contact-panel.tsx'
import { ConversationList } from '#app/components/inbox/conversation-list.tsx'
import * as styles from '#app/components/inbox/inbox.css.ts'
import { Shortcuts } from '#app/components/inbox/shortcuts.tsx'
import { Thread } from '#app/components/inbox/thread.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { inboxQuery, priorities, snoozePresets, snoozeUntil, statuses, zonedTime, type ConversationPage } from '#app/utils/conversations.ts'
import { languageOf } from '#locales/languages.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useLiveState } from '#app/realtime/use-workspace-events.ts'
import { inboxNavigation, threadAddress } from '#app/utils/inbox-navigation.ts'
import { mergeInboxEvent } from '#app/utils/live-inbox.ts'
import { type DashboardLoader } from './$lang.dashboard.tsx'

// Conversations and messages merge into the page (useLiveData); these reload it, rarely as they come.
export const handle = { i18n: ['inbox'], live: ['label.', 'team.', 'contact.updated', 'contact.deleted', 'contact.merged'] }

export type Member = Pick<MemberJson, 'userId' | 'name' | 'email'>
export type Channel = Pick<ChannelJson, 'id' | 'kind' | 'name'>
/** A team as the inbox offers it; `mine`: the reader is one of its members. */
export type InboxTeam = { id: string; name: string; mine: boolean }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const query = inboxQuery(url.searchParams)
	const t = await inboxT(locale)
	const emptyPage: ConversationPage = { conversations: [], nextCursor: null, counts: { open: 0, pending: 0, resolved: 0, snoozed: 0 }, countsLimit: null }
	// Read before the data: the events after it are what the page merges.
	const since = await lastEvent(api, user.workspace.id)
	const [{ list: page, failure }, labels, members, channels, teams, opened] = await Promise.all([
		listOrToast(
			listConversations(api, user.workspace.id, {
				status: query.status,
				assignee: query.assignee,
				team: query.team || undefined,
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
		optional(listLabels(api, user.workspace.id), [], locale, args.request),
		optional(firstMembers(api, user.workspace.id), [], locale, args.request).then((members) =>
			members.map(({ userId, name, email }) => ({ userId, name, email })),
		),
		optional(listChannels(api, user.workspace.id), [], locale, args.request).then((channels) => channels.map(({ id, kind, name }) => ({ id, kind, name }))),
		optional(inboxTeams(api, user.workspace.id), [], locale, args.request).then((teams) =>
			teams.map(({ id, name, members }): InboxTeam => ({ id, name, mine: members.some((member) => member.userId === user.id) })),
		),
		openedPart(api, user.workspace.id, url, locale, args.request),
	])
	return {
		now: Date.now(),
		upload: { maxBytes: args.context.config.UPLOAD_MAX_BYTES, megabytes: megabytes(args.context.config.UPLOAD_MAX_BYTES, languageOf(locale).tag) },
		locale,
		me: { userId: user.id, name: user.name },
		workspaceId: user.workspace.id,
		since,
		query,
		page,
		labels,
		members,
		channels,
		teams,
		...opened,
		failure,
	}
}

export type InboxLoader = typeof loader
type Loaded = ReturnType<typeof useLoaderData<typeof loader>>

/**
 * What the page shows, merged with the workspace's events up to `since`, and the address it was
 * loaded for: kept by the page while it is open, for the next navigation (app/utils/inbox-navigation.ts).
 */
let showing: { address: string; data: Loaded } | null = null
// Whether the load Remix is about to ask for follows a form's post (its answer may have changed anything): the whole page.
let posted = false

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => {
	posted = Boolean(formMethod) && formMethod !== 'GET'
	return defaultShouldRevalidate
}

/** The thread route's answer for `next`; null when it has none to give (signed out, a failure): the whole page loads. */
async function threadPart(next: URL, workspaceId: string, signal: AbortSignal): Promise<ThreadPart | null> {
	try {
		const response = await fetch(threadAddress(next, workspaceId), { signal, redirect: 'manual', headers: { Accept: 'application/json' } })
		return response.ok ? ((await response.json()) as ThreadPart) : null
	} catch (error) {
		if (signal.aborted) throw error
		return null
	}
}

/**
 * A navigation that changes only the open conversation asks the thread route for it and keeps the
 * rest of what the page shows; one that changes only the pane loads nothing; any other load, and the
 * first, run the loader (app/utils/inbox-navigation.ts). Without JavaScript the loader does it all.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs): Promise<Loaded> {
	const next = new URL(request.url)
	const kept = posted ? null : showing
	posted = false
	const way = kept ? inboxNavigation(new URL(kept.address, next), next) : 'page'
	if (kept && way === 'none') return kept.data
	const part = kept && way === 'thread' ? await threadPart(next, kept.data.workspaceId, request.signal) : null
	if (!kept || !part) return serverLoader<typeof loader>()
	// Opening a conversation read it: its row's unread badge goes, as the whole page's load would show.
	const conversations = kept.data.page.conversations.map((row) => (row.id === part.conversation?.id ? { ...row, unreadCount: 0 } : row))
	return { ...kept.data, ...part, now: Date.now(), page: { ...kept.data.page, conversations } }
}

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
	const workspaceId = user.workspace.id
	const number = Number(field('number'))
	const refused = (title: string) => (error: unknown) => refusalToast(error, { locale, request, to: back, title })
	const timeZone = user.workspace.timezone

	if (intent === 'bulk') {
		// "Select all" ticked: the page's conversations, whichever rows are ticked (without JavaScript it ticks nothing else).
		const numbers = form
			.getAll(field('all') === 'page' ? 'page' : 'numbers')
			.map(Number)
			.filter(Number.isInteger)
		const [kind = '', value = ''] = field('bulk').split(':')
		if (numbers.length === 0) return redirectWithToast(back, { type: 'warning', title: t('bulk.none') })
		const body =
			kind === 'assign'
				? { action: 'assign', assigneeId: value === 'me' ? user.id : value || null }
				: kind === 'team'
					? { action: 'team', teamId: value || null }
					: kind === 'status'
						? { action: 'status', status: value }
						: { action: kind, labelId: value }
		return bulkConversations(api, workspaceId, { numbers: numbers.slice(0, 100), ...body })
			.then(({ updated }) => redirectWithToast(back, { type: 'success', title: t('bulk.done', { count: updated }) }))
			.catch(refused(t('bulk.failed')))
	}

	if (!Number.isInteger(number) || number < 1) return redirectWithToast(back, { type: 'error', title: t('notFound') })
	if (intent === 'reply') {
		const body = field('body').trim()
		const kind = field('kind') === 'note' ? 'note' : 'text'
		const file = form.get('file')
		if (file === fileTooLarge)
			return data<ActionResult>(
				{ intent: 'reply', error: t('composer.fileTooLarge', { max: megabytes(maxBytes, languageOf(locale).tag) }), body: field('body'), kind },
				{ status: 413 },
			)
		const attached = file instanceof File && file.name ? file : null
		if (!body && !attached) return data<ActionResult>({ intent: 'reply', error: common('forms.required'), body: field('body'), kind }, { status: 400 })
		try {
			if (attached) {
				// The API reads the file itself (its type, its size against the same limit) and keeps it.
				const upload = new FormData()
				upload.set('kind', kind)
				upload.set('body', body)
				upload.set('file', attached, attached.name)
				await sendMessage(api, workspaceId, number, upload)
			} else await sendMessage(api, workspaceId, number, { kind, body })
		} catch (error) {
			const failed = await apiFailure(error, locale, request)
			return data<ActionResult>({ intent: 'reply', error: failed.message, body: field('body'), kind }, { status: failed.status })
		}
		// A reply may be sent again from the same page: a redirect keeps the browser from posting it twice on reload.
		return redirect(back)
	}

	if (intent === 'retry') {
		return retryMessage(api, workspaceId, number, field('messageId')).then(() => redirect(back), refused(t('retryFailed')))
	}

	if (intent === 'template') {
		const template = { name: field('name'), language: field('language'), parameters: form.getAll('parameters').map((value) => String(value).trim()) }
		// Sent, the picker closes.
		const next = new URL(back, url)
		next.searchParams.delete('templates')
		return sendMessage(api, workspaceId, number, { kind: 'template', template }).then(
			() => redirect(next.pathname + next.search),
			refused(t('templates.failed')),
		)
	}

	if (intent === 'labels') {
		const labelIds = form.getAll('labelIds').map(String)
		return replaceConversationLabels(api, workspaceId, number, labelIds).then(() => redirect(back), refused(t('labels.failed')))
	}

	// Assignment, team, status and priority are all a PATCH of the conversation.
	let changes: Record<string, unknown>
	if (intent === 'assign') changes = { assigneeId: field('assigneeId') === 'me' ? user.id : field('assigneeId') || null }
	else if (intent === 'team') changes = { teamId: field('teamId') || null }
	else if (intent === 'priority') changes = { priority: priorities.find((value) => value === field('priority')) ?? field('priority') }
	else if (intent === 'status') changes = { status: statuses.find((value) => value === field('status')) ?? field('status') }
	else if (intent === 'snooze') {
		const preset = snoozePresets.find((value) => value === field('preset'))
		const until = preset ? snoozeUntil(preset, timeZone) : zonedTime(field('until'), timeZone)
		if (!until || until.getTime() <= Date.now()) return data<ActionResult>({ intent: 'snooze', error: t('snooze.future') }, { status: 400 })
		changes = { status: 'snoozed', snoozedUntil: until.toISOString() }
	} else return redirectWithToast(back, { type: 'error', title: t('unknownAction') })
	return updateConversation(api, workspaceId, number, changes).then(() => redirect(back), refused(t('updateFailed')))
}

export default function Conversations() {
	const loaded = useLoaderData<typeof loader>()
	// The list, its counts and the open thread follow the workspace's events (app/utils/live-inbox.ts).
	const inboxData = useMemo(() => ({ page: loaded.page, conversation: loaded.conversation, thread: loaded.thread }), [loaded])
	const inView = useMemo(
		() => ({ query: loaded.query, me: loaded.me.userId, myTeamIds: loaded.teams.filter((team) => team.mine).map((team) => team.id) }),
		[loaded],
	)
	const live = useLiveState(inboxData, loaded.since, inView, mergeInboxEvent)
	const loaderData = { ...loaded, ...live.data }
	const { conversation, thread, missing, failure, workspaceId, otherConversations, contactSatisfaction } = loaderData
	const shell = useRouteLoaderData<DashboardLoader>('routes/$lang.dashboard')
	const { t: commonT } = useTranslation()
	const { t, ready } = useTranslation('inbox', { keyPrefix: 'ui' })
	const location = useLocation()
	// Kept for the next navigation while it is what the page shows: with every event up to `last` merged, none missed.
	useEffect(() => {
		showing =
			live.last === null || live.stale || loaded.failure
				? null
				: { address: location.pathname + location.search, data: { ...loaded, ...live.data, since: live.last } }
		return () => {
			showing = null
		}
	}, [loaded, live, location])
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
					{conversation ? (
						<ContactPanel conversation={conversation} others={otherConversations} satisfaction={contactSatisfaction} teams={loaderData.teams} />
					) : null}
				</aside>
			</div>
			<Shortcuts />
		</>
	)
}
