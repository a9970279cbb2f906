import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useEffect, useRef, type InputHTMLAttributes } from 'react'
import { ApiError, type VisitorThreadJson } from '#app/.server/api.ts'
import { linkPage, postVisitorMessage, rateConversation, visitorThread } from '#app/.server/link.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { newVisitorToken, readVisitorToken, visitorApi, visitorCookie } from '#app/.server/visitor.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import { serverI18n } from '#app/i18n/i18n.server.ts'
import { Attachments } from '#app/components/attachments.tsx'
import { linkify } from '#app/components/link-chat/linkify.ts'
import { useMarkRepliesRead } from '#app/components/link-chat/use-mark-read.ts'
import { useVisitorChannel } from '#app/components/link-chat/use-visitor-channel.ts'
import { useErrorText } from '#app/components/ui/field.tsx'
import { isolated } from '#app/utils/bidi.tsx'
import { useHydrated } from '#app/utils/hydration.ts'
import { combineHeaders, pageNotFound, formOf } from '#app/utils/http.ts'
import { languageOf, languages, type Locale } from '#locales/languages.ts'
import * as styles from './link-chat.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { surveySchema, visitorMessageSchema } from './$lang.c.$slug.schema.ts'
import { SurveyForm } from '#app/components/link-chat/survey-form.tsx'

const loadSchema = () => import('./$lang.c.$slug.schema.ts').then((module) => module.visitorMessageSchema)

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
	const empty: VisitorThreadJson = { conversationId: null, survey: null, messages: [], olderCursor: null }
	const [page, thread] = await Promise.all([
		linkOr404(request, linkPage(client, slug)),
		token ? linkOr404(request, visitorThread(client, slug, before && /^\d{1,18}$/.test(before) ? before : undefined)) : empty,
	])
	const title = (await channelsT(locale))('link.title', { business: page.businessName })
	const away = page.closed ? await awayNotice(locale, page.backAt, page.timezone) : null
	return data(
		{ locale, page, thread, title, away, realtime: context.realtime, showingOlder: Boolean(before) },
		{ headers: { 'Cache-Control': 'private, no-store' } },
	)
}

/**
 * Out of business hours: when the team is back, in the page's language and the workspace's time
 * zone (the weekday and time within the week, the date too beyond it), formatted here so that the
 * page says it without JavaScript and hydrates the same.
 */
async function awayNotice(locale: Locale, backAt: string | null, timeZone: string): Promise<string> {
	const t = (await serverI18n(locale)).getFixedT(languageOf(locale).tag, 'businessHours')
	if (!backAt) return t('link.away')
	const back = new Date(backAt)
	const withinWeek = back.getTime() - Date.now() < 6 * 24 * 3600 * 1000
	const when = dateTimeFormat(languageOf(locale).tag, {
		timeZone,
		weekday: 'long',
		...(withinWeek ? {} : { day: 'numeric', month: 'long' }),
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).format(back)
	return t('link.awayUntil', { when })
}

/** Posts the visitor's message (the cookie is set with the first one), then shows the thread again: the same with or without JavaScript. */
export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const slug = params.slug ?? ''
	if (!slugShape.test(slug)) pageNotFound(request)
	const form = await formOf(request)
	if (form.get('intent') === 'rate') return rate(request, context, locale, slug, form)
	const submission = parseWithZod(form, { schema: visitorMessageSchema })
	let token = readVisitorToken(request)
	const headers = new Headers()
	if (!token) {
		token = newVisitorToken()
		headers.append('Set-Cookie', visitorCookie(request, token))
	}
	// The form keeps what they typed, whatever the refusal; the cookie comes with it.
	if (submission.status !== 'success') return replyInvalid(submission, { headers })
	try {
		// The API checks the fields and words its messages in the visitor's language.
		await postVisitorMessage(visitorApi(request, context, locale, token), slug, submission.value)
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(request)
		return replyWithApiError(submission, error, { headers })
	}
	headers.set('Cache-Control', 'no-store')
	return redirect(`/${locale}/c/${slug}#latest`, { headers })
}

/** The rating form of the resolved conversation: the page again with the thanks, or with the refusal beside the form and the choice kept. */
async function rate(request: Request, context: ActionFunctionArgs['context'], locale: Locale, slug: string, form: FormData) {
	const submission = parseWithZod(form, { schema: surveySchema })
	const beside = { with: { intent: 'rate' } }
	const token = readVisitorToken(request)
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		// Without their cookie, nothing of theirs to rate: the API says so in their language.
		await rateConversation(visitorApi(request, context, locale, token ?? newVisitorToken()), slug, {
			rating: submission.value.rating,
			comment: submission.value.comment || undefined,
		})
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(request)
		return replyWithApiError(submission, error, beside)
	}
	return redirect(`/${locale}/c/${slug}#survey-heading`, { headers: { 'Cache-Control': 'no-store' } })
}

export default function LinkChat() {
	const { locale, page, thread, realtime, showingOlder, away } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	// Each form shows its own refusal: the rating's, or the message's.
	const rated = reply && 'intent' in reply && reply.intent === 'rate'
	const lastResult = rated ? undefined : reply?.result
	const { t } = useTranslation('channels')
	const navigation = useNavigation()
	const sending = navigation.state === 'submitting' || (navigation.state === 'loading' && navigation.formMethod === 'POST')
	const formRef = useRef<HTMLFormElement>(null)
	const latestRef = useRef<HTMLLIElement>(null)
	const base = `/${locale}/c/${page.slug}`
	const { teamTyping, typing } = useVisitorChannel({ config: realtime, authEndpoint: `${base}/realtime-auth`, conversationId: thread.conversationId })
	const askFirst = !thread.conversationId && (page.askName || page.askEmail)
	const [form, fields] = useValidatedForm(loadSchema, { id: 'message', lastResult })
	const refused = Boolean(lastResult)
	const team = isolated((values) => t('link.team', values), { business: page.businessName })
	// The team's newest reply on screen: read once the visitor's page is seen with it.
	const newestReply = thread.messages.findLast((message) => message.direction === 'outgoing')?.id ?? null
	useMarkRepliesRead(`${base}/read`, newestReply)

	// A sent message leaves the box empty for the next one.
	const lastCount = useRef(thread.messages.length)
	useEffect(() => {
		if (thread.messages.length !== lastCount.current && !refused) formRef.current?.reset()
		lastCount.current = thread.messages.length
		if (!showingOlder) latestRef.current?.scrollIntoView({ block: 'nearest' })
	}, [thread.messages.length, refused, showingOlder])

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
					{away ? (
						<p className={styles.away} role="status">
							{away}
						</p>
					) : null}
					{/* Out of hours, the away auto-reply's words, in the page's language where the owner translated them. */}
					{away && page.awayText ? (
						<p className={styles.away} dir="auto">
							{page.awayText}
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

				{thread.survey ? <SurveyForm survey={thread.survey} result={rated ? reply.result : undefined} pending={sending} /> : null}

				<Form method="post" {...getFormProps(form)} ref={formRef} className={styles.composer} aria-labelledby={askFirst ? 'pre-chat-heading' : undefined}>
					{askFirst ? (
						<fieldset className={styles.preChat}>
							<legend id="pre-chat-heading" className={styles.preChatTitle}>
								{t('link.preChat')}
							</legend>
							{page.askName ? (
								<TextField
									label={t('link.name')}
									input={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: 80, autoComplete: 'name' }}
									errors={fields.name.errors}
									errorId={fields.name.errorId}
								/>
							) : null}
							{page.askEmail ? (
								<TextField
									label={t('link.email')}
									input={{ ...getInputProps(fields.email, { type: 'email' }), maxLength: 254, autoComplete: 'email' }}
									errors={fields.email.errors}
									errorId={fields.email.errorId}
								/>
							) : null}
						</fieldset>
					) : null}
					{form.errors?.length ? (
						<p id={form.errorId} role="alert" className={styles.error}>
							{form.errors[0]}
						</p>
					) : null}
					<label htmlFor={fields.body.id} className="visually-hidden">
						{t('link.message')}
					</label>
					<div className={styles.sendRow}>
						<textarea
							{...getTextareaProps(fields.body)}
							required
							maxLength={4096}
							rows={2}
							placeholder={t('link.placeholder')}
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
					<ErrorText id={fields.body.errorId} errors={fields.body.errors} />
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

function TextField({ label, input, errors, errorId }: { label: string; input: InputHTMLAttributes<HTMLInputElement>; errors?: string[]; errorId: string }) {
	return (
		<div className={styles.field}>
			<label htmlFor={input.id} className={styles.label}>
				{label}
			</label>
			<input {...input} required className={styles.input} />
			<ErrorText id={errorId} errors={errors} />
		</div>
	)
}

/** A field's first message: the API's words, or the form's rule in the visitor's language. */
function ErrorText({ id, errors }: { id: string; errors?: string[] }) {
	const text = useErrorText()
	return errors?.[0] ? (
		<p id={id} className={styles.error}>
			{text(errors[0])}
		</p>
	) : null
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
