import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useEffect, useRef } from 'react'
import { ApiError, type LinkPageJson, type VisitorThreadJson } from '#app/.server/api.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { newVisitorToken, readVisitorToken, visitorApi, visitorCookie, visitorFormReply } from '#app/.server/visitor.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import { Attachments } from '#app/components/attachments.tsx'
import { linkify } from '#app/components/link-chat/linkify.ts'
import { useMarkRepliesRead } from '#app/components/link-chat/use-mark-read.ts'
import { useVisitorChannel } from '#app/components/link-chat/use-visitor-channel.ts'
import { isolated } from '#app/utils/bidi.tsx'
import { useHydrated } from '#app/utils/hydration.ts'
import { combineHeaders, pageNotFound, formOf } from '#app/utils/http.ts'
import { languages, type Locale } from '#locales/languages.ts'
import * as styles from './link-chat.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'

// The channels namespace loads with the page (before it hydrates), besides `common`.
export const handle = { i18n: ['channels'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'CRM' }, { name: 'robots', content: 'noindex' }]

/** The document gets the loader's no-store and, after a refused post, the action's first visitor cookie (Remix passes neither on by itself). */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => combineHeaders(loaderHeaders, actionHeaders)

/** A slug the API could not have (it answers 404 alike; this spares it the call). */
const slugShape = /^[a-z0-9-]{1,100}$/i

async function linkOr404<T>(request: Request, call: Promise<T>): Promise<T> {
	try {
		return await call
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(request)
		throw error
	}
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
	const locale = await requireLocale(request, params)
	const slug = params.slug ?? ''
	if (!slugShape.test(slug)) pageNotFound(request)
	const token = readVisitorToken(request)
	const client = visitorApi(request, context, locale, token)
	const before = new URL(request.url).searchParams.get('before')
	const empty: VisitorThreadJson = { conversationId: null, messages: [], olderCursor: null }
	const [page, thread] = await Promise.all([
		linkOr404(request, client.get<LinkPageJson>(`/link/${slug}`)),
		token
			? linkOr404(request, client.get<VisitorThreadJson>(`/link/${slug}/messages`, { before: before && /^\d{1,18}$/.test(before) ? before : undefined }))
			: empty,
	])
	const title = (await channelsT(locale))('link.title', { business: page.businessName })
	return data({ locale, page, thread, title, realtime: context.realtime, showingOlder: Boolean(before) }, { headers: { 'Cache-Control': 'private, no-store' } })
}

/** Posts the visitor's message (the cookie is set with the first one), then shows the thread again: the same with or without JavaScript. */
export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const slug = params.slug ?? ''
	if (!slugShape.test(slug)) pageNotFound(request)
	const form = await formOf(request)
	const values = Object.fromEntries(['body', 'name', 'email'].map((field) => [field, String(form.get(field) ?? '')]))
	let token = readVisitorToken(request)
	const headers = new Headers()
	if (!token) {
		token = newVisitorToken()
		headers.append('Set-Cookie', visitorCookie(request, token))
	}
	try {
		// The API checks the fields and words its messages in the visitor's language; the form keeps what they typed.
		await visitorApi(request, context, locale, token).post(`/link/${slug}/messages`, values)
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(request)
		const { reply, status } = visitorFormReply(error, values)
		return data(reply, { status, headers })
	}
	headers.set('Cache-Control', 'no-store')
	return redirect(`/${locale}/c/${slug}#latest`, { headers })
}

export default function LinkChat() {
	const { locale, page, thread, realtime, showingOlder } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('channels')
	const navigation = useNavigation()
	const sending = navigation.state === 'submitting' || (navigation.state === 'loading' && navigation.formMethod === 'POST')
	const formRef = useRef<HTMLFormElement>(null)
	const latestRef = useRef<HTMLLIElement>(null)
	const base = `/${locale}/c/${page.slug}`
	const { teamTyping, typing } = useVisitorChannel({ config: realtime, authEndpoint: `${base}/realtime-auth`, conversationId: thread.conversationId })
	const askFirst = !thread.conversationId && (page.askName || page.askEmail)
	const errors = reply && 'fieldErrors' in reply ? reply : null
	const team = isolated((values) => t('link.team', values), { business: page.businessName })
	// The team's newest reply on screen: read once the visitor's page is seen with it.
	const newestReply = thread.messages.findLast((message) => message.direction === 'outgoing')?.id ?? null
	useMarkRepliesRead(`${base}/read`, newestReply)

	// A sent message leaves the box empty for the next one.
	const lastCount = useRef(thread.messages.length)
	useEffect(() => {
		if (thread.messages.length !== lastCount.current && !errors) formRef.current?.reset()
		lastCount.current = thread.messages.length
		if (!showingOlder) latestRef.current?.scrollIntoView({ block: 'nearest' })
	}, [thread.messages.length, errors, showingOlder])

	return (
		<div className={styles.page}>
			<header className={styles.header}>
				<span className={styles.avatar} style={{ background: page.logoColor }} aria-hidden="true">
					{Array.from(page.businessName)[0]?.toUpperCase()}
				</span>
				<div className={styles.heading}>
					<h1 className={styles.business} dir="auto">
						{page.businessName}
					</h1>
					<p className={styles.channelName} dir="auto">
						{page.name}
					</p>
				</div>
				<nav aria-label={t('link.languages')} className={styles.languages}>
					{languages.map((language) => (
						<a
							key={language.code}
							href={`/${language.code}/c/${page.slug}`}
							lang={language.tag}
							aria-current={language.code === locale ? 'page' : undefined}
							className={styles.language}
						>
							{language.name}
						</a>
					))}
				</nav>
			</header>

			<main className={styles.main}>
				<section className={styles.intro}>
					{/* The owner's words, in whatever language they wrote them: their own direction, their full stop at their end. */}
					<p className={styles.greeting} dir={page.greeting ? 'auto' : undefined}>
						{page.greeting || t('link.defaultGreeting')}
					</p>
					{page.awayMessage ? (
						<p className={styles.away} dir="auto">
							{page.awayMessage}
						</p>
					) : null}
				</section>

				<section aria-labelledby="thread-heading" className={styles.threadSection}>
					<h2 id="thread-heading" className="visually-hidden">
						{t('link.thread')}
					</h2>
					{thread.olderCursor ? (
						<Link to={`${base}?before=${thread.olderCursor}`} className={styles.older} preventScrollReset>
							{t('link.older')}
						</Link>
					) : null}
					{thread.messages.length === 0 ? <p className={styles.empty}>{t('link.empty')}</p> : null}
					<ol className={styles.thread} aria-live="polite">
						{thread.messages.map((message, index) => (
							<li
								key={message.id}
								id={index === thread.messages.length - 1 ? 'latest' : undefined}
								ref={index === thread.messages.length - 1 ? latestRef : undefined}
								className={message.direction === 'incoming' ? styles.mine : styles.theirs}
							>
								<span className={styles.author}>
									{message.direction === 'incoming' ? t('link.you') : message.senderName ? <bdi>{message.senderName}</bdi> : team}
								</span>
								{message.body ? (
									<p className={styles.body} dir="auto">
										<MessageText text={message.body} />
									</p>
								) : null}
								<Attachments attachments={message.attachments} hrefOf={(id) => `${base}/attachments/${id}`} />
								<Time iso={message.createdAt} locale={locale} />
							</li>
						))}
					</ol>
					<p className={styles.typing} role="status">
						{teamTyping ? isolated((values) => t('link.typing', values), { business: page.businessName }) : ''}
					</p>
				</section>

				<Form method="post" ref={formRef} className={styles.composer} aria-labelledby={askFirst ? 'pre-chat-heading' : undefined}>
					{askFirst ? (
						<fieldset className={styles.preChat}>
							<legend id="pre-chat-heading" className={styles.preChatTitle}>
								{t('link.preChat')}
							</legend>
							{page.askName ? (
								<TextField name="name" label={t('link.name')} type="text" autoComplete="name" errors={errors?.fieldErrors.name} value={errors?.values.name} />
							) : null}
							{page.askEmail ? (
								<TextField
									name="email"
									label={t('link.email')}
									type="email"
									autoComplete="email"
									errors={errors?.fieldErrors.email}
									value={errors?.values.email}
								/>
							) : null}
						</fieldset>
					) : null}
					{errors?.formError ? (
						<p role="alert" className={styles.error}>
							{errors.formError}
						</p>
					) : null}
					<label htmlFor="message-body" className="visually-hidden">
						{t('link.message')}
					</label>
					<div className={styles.sendRow}>
						<textarea
							id="message-body"
							name="body"
							required
							maxLength={4096}
							rows={2}
							placeholder={t('link.placeholder')}
							defaultValue={errors?.values.body}
							aria-invalid={errors?.fieldErrors.body ? true : undefined}
							aria-describedby={errors?.fieldErrors.body?.[0] ? 'message-body-error' : undefined}
							className={styles.textarea}
							onInput={typing}
							onKeyDown={(event) => {
								// Enter sends, Shift+Enter is a new line (as in the agents' composer).
								if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
									event.preventDefault()
									event.currentTarget.form?.requestSubmit()
								}
							}}
						/>
						<button type="submit" className={styles.send} disabled={sending}>
							{sending ? t('link.sending') : t('link.send')}
						</button>
					</div>
					{errors?.fieldErrors.body?.[0] ? (
						<p id="message-body-error" className={styles.error}>
							{errors.fieldErrors.body[0]}
						</p>
					) : null}
					{realtime.key ? null : <p className={styles.hint}>{t('link.reloadHint')}</p>}
				</Form>
			</main>
		</div>
	)
}

/** The text as text: React escapes it, so HTML is shown, never rendered; http(s) links open in a new tab without referrer. */
function MessageText({ text }: { text: string }) {
	return linkify(text).map((part, index) =>
		'href' in part ? (
			<a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
				{part.text}
			</a>
		) : (
			<span key={index}>{part.text}</span>
		),
	)
}

function TextField({
	name,
	label,
	type,
	autoComplete,
	errors,
	value,
}: {
	name: string
	label: string
	type: string
	autoComplete: string
	errors?: string[]
	value?: string
}) {
	const id = `pre-chat-${name}`
	return (
		<div className={styles.field}>
			<label htmlFor={id} className={styles.label}>
				{label}
			</label>
			<input
				id={id}
				name={name}
				type={type}
				required
				maxLength={name === 'email' ? 254 : 80}
				autoComplete={autoComplete}
				defaultValue={value}
				aria-invalid={errors?.length ? true : undefined}
				aria-describedby={errors?.length ? `${id}-error` : undefined}
				className={styles.input}
			/>
			{errors?.length ? (
				<p id={`${id}-error`} className={styles.error}>
					{errors[0]}
				</p>
			) : null}
		</div>
	)
}

function formatOf(tag: string, timeZone: string | undefined) {
	return dateTimeFormat(tag, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: timeZone ? 'short' : undefined })
}

/** In UTC (said so) in the server's HTML, which knows no visitor's time zone; in theirs once the browser has taken over. */
function Time({ iso, locale }: { iso: string; locale: Locale }) {
	const hydrated = useHydrated()
	const tag = languages.find((language) => language.code === locale)?.tag ?? 'en-US'
	return (
		<time dateTime={iso} className={styles.time}>
			{formatOf(tag, hydrated ? undefined : 'UTC').format(new Date(iso))}
		</time>
	)
}
