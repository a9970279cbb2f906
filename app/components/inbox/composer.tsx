import { useFetcher } from '@remix-run/react'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { button } from '#app/components/ui/button.css.ts'
import { textarea } from '#app/components/ui/field.css.ts'
import { type action, type Member } from '#app/routes/$lang.dashboard.conversations.tsx'
import { type CannedLoader } from '#app/routes/$lang.dashboard.conversations_.canned.tsx'
import { draftKey, tokenBeforeCaret, type Conversation } from '#app/utils/conversations.ts'
import * as styles from './inbox.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'

type Kind = 'text' | 'note'
type Suggestion = { id: string; label: string; hint: string; insert: string }
type Props = {
	locale: string
	workspaceId: string
	conversation: Conversation
	members: Member[]
	upload: { maxBytes: number; megabytes: string }
	onTyping: (kind: Kind) => void
}

function readDraft(key: string): string {
	try {
		return localStorage.getItem(key) ?? ''
	} catch {
		return ''
	}
}

function writeDraft(key: string, text: string) {
	try {
		if (text) localStorage.setItem(key, text)
		else localStorage.removeItem(key)
	} catch {
		// Storage full or refused (private mode): the draft lives only in the field.
	}
}

/**
 * Reply or private note: a form that posts without JavaScript; with it, Enter sends (Shift+Enter is
 * a new line), `/` at the start of a line offers canned responses, `@` in a note offers members, and
 * the draft is kept per conversation in this browser until it is sent.
 */
export function Composer({ locale, workspaceId, conversation, members, upload, onTyping }: Props) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const fetcher = useFetcher<typeof action>()
	const canned = useFetcher<CannedLoader>()
	const actionData = useKeptActionData<typeof action>()
	const refused = [fetcher.data, actionData].find((answer) => answer?.intent === 'reply')
	// A refused note stays a note: the server's form is rendered with the kind it was sent as.
	const [kind, setKind] = useState<Kind>(refused && 'kind' in refused ? refused.kind : 'text')
	const [text, setText] = useState(refused && 'body' in refused ? refused.body : '')
	const [menu, setMenu] = useState<{ trigger: '@' | '/'; start: number; query: string } | null>(null)
	const [active, setActive] = useState(0)
	const field = useRef<HTMLTextAreaElement>(null)
	const fileInput = useRef<HTMLInputElement>(null)
	const id = useId()
	const key = draftKey(workspaceId, conversation.number)
	const sending = fetcher.state !== 'idle'

	// What the agent chose and typed before the page hydrated is in the form, not in React's state: it
	// carries on from there (rendering the state over it would switch a note back to a reply and wipe it).
	// Otherwise the draft comes back (the server knows nothing of it).
	useEffect(() => {
		const form = field.current?.form
		const chosen = form?.querySelector<HTMLInputElement>('input[name="kind"]:checked')?.value
		if (chosen === 'text' || chosen === 'note') setKind(chosen)
		const typed = field.current?.value ?? ''
		if (typed) {
			setText(typed)
			writeDraft(key, typed)
		} else {
			const draft = readDraft(key)
			if (draft) setText(draft)
		}
		// Once, when the composer mounts.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [])

	// Sent: the field and the draft empty once the answer came back without a refusal, unless the
	// agent has already typed something else meanwhile (that stays).
	const sent = useRef<string | null>(null)
	const submitted = fetcher.formData?.get('body')
	useEffect(() => {
		if (typeof submitted === 'string') sent.current = submitted
		if (sent.current === null || fetcher.state !== 'idle') return
		const body = sent.current
		sent.current = null
		if (fetcher.data && 'error' in fetcher.data) return
		// Sent: the chosen file goes with it (a refusal keeps it chosen, to send again or change).
		if (fileInput.current) fileInput.current.value = ''
		setText((current) => {
			if (current !== body) return current
			writeDraft(key, '')
			return ''
		})
	}, [submitted, fetcher.state, fetcher.data, key])

	const slash = menu?.trigger === '/' ? menu : null
	// Whether the canned responses shown are the answer to what is typed now (not the previous keystroke's).
	const cannedAnswered = slash !== null && canned.state === 'idle' && canned.data?.search === slash.query.slice(0, 100)
	const cannedAnswers = canned.data?.cannedResponses ?? []
	const suggestions: Suggestion[] =
		menu?.trigger === '/'
			? cannedAnswers.map((answer) => ({ id: answer.id, label: `/${answer.shortCode}`, hint: answer.content, insert: answer.content }))
			: menu?.trigger === '@'
				? members
						.filter((member) => member.name.toLocaleLowerCase().includes(menu.query.toLocaleLowerCase()))
						.slice(0, 8)
						.map((member) => ({ id: member.userId, label: member.name, hint: member.email, insert: `@${member.name} ` }))
				: []
	const open = menu !== null && suggestions.length > 0
	// `/code` that matches nothing is said so, and Enter does not send it as text (Escape closes the menu, then it may).
	const noMatch = cannedAnswered && suggestions.length === 0
	// Enter pressed before the answer for the latest keystroke came: it chooses once it is there.
	const chooseWhenAnswered = useRef(false)

	// One load of the canned responses at a time: a load cut short by the next keystroke is an
	// uncaught AbortError in single fetch. The latest query is loaded once the one in flight is back.
	const cannedQuery = useRef<{ wanted: string; loaded: string | null }>({ wanted: '', loaded: null })
	const { load: loadFetcher } = canned
	const cannedIdle = canned.state === 'idle'
	const fetchCanned = useCallback(
		(query: string) => {
			cannedQuery.current.loaded = query
			loadFetcher(`/${locale}/dashboard/conversations/canned?search=${encodeURIComponent(query)}`)
		},
		[loadFetcher, locale],
	)
	const loadCanned = (query: string) => {
		cannedQuery.current.wanted = query
		if (cannedIdle) fetchCanned(query)
	}
	const menuTrigger = menu?.trigger
	useEffect(() => {
		const { wanted, loaded } = cannedQuery.current
		if (cannedIdle && menuTrigger === '/' && loaded !== null && wanted !== loaded) fetchCanned(wanted)
	}, [cannedIdle, menuTrigger, fetchCanned])

	function update(value: string, caret: number) {
		setText(value)
		writeDraft(key, value)
		chooseWhenAnswered.current = false
		if (value.trim()) onTyping(kind)
		const found = (['/', '@'] as const)
			.map((trigger) => ({ trigger, token: tokenBeforeCaret(value, caret, trigger) }))
			.find(({ trigger, token }) => token && (trigger === '/' || kind === 'note'))
		if (!found?.token) return setMenu(null)
		setMenu({ trigger: found.trigger, ...found.token })
		setActive(0)
		if (found.trigger === '/') loadCanned(found.token.query)
	}

	function choose(suggestion: Suggestion) {
		if (!menu || !field.current) return
		const caret = field.current.selectionStart
		const value = text.slice(0, menu.start) + suggestion.insert + text.slice(caret)
		const at = menu.start + suggestion.insert.length
		setText(value)
		writeDraft(key, value)
		setMenu(null)
		requestAnimationFrame(() => field.current?.setSelectionRange(at, at))
	}

	const firstSuggestion = suggestions[0]
	useEffect(() => {
		if (!cannedAnswered || !chooseWhenAnswered.current) return
		chooseWhenAnswered.current = false
		if (firstSuggestion) choose(firstSuggestion)
		// Only when the answer arrives.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [cannedAnswered, firstSuggestion])

	function onKeyDown(event: React.KeyboardEvent<HTMLTextAreaElement>) {
		if (slash && (event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && !event.nativeEvent.isComposing && !cannedAnswered) {
			event.preventDefault()
			chooseWhenAnswered.current = true
			return
		}
		if (noMatch && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
			event.preventDefault()
			return
		}
		if (menu && event.key === 'Escape') {
			event.preventDefault()
			setMenu(null)
			return
		}
		if (open) {
			if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
				event.preventDefault()
				setActive((current) => (current + (event.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length)
				return
			}
			if (event.key === 'Enter' || event.key === 'Tab') {
				event.preventDefault()
				choose(suggestions[active] ?? suggestions[0]!)
				return
			}
		}
		// Enter sends, Shift+Enter is a new line; an input method composing a word keeps its Enter.
		if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
			event.preventDefault()
			if ((text.trim() || fileInput.current?.files?.length) && !sending) event.currentTarget.form?.requestSubmit()
		}
	}

	const listId = `${id}-suggestions`
	return (
		<fetcher.Form method="post" encType="multipart/form-data" className={styles.composer} aria-label={t('composer.label')}>
			<input type="hidden" name="intent" value="reply" />
			<input type="hidden" name="number" value={conversation.number} />
			<fieldset className={styles.kinds}>
				<legend className="visually-hidden">{t('composer.kind')}</legend>
				{(['text', 'note'] as const).map((value) => (
					<label key={value} className={styles.kind}>
						<input type="radio" name="kind" value={value} id={`composer-kind-${value}`} checked={kind === value} onChange={() => setKind(value)} />
						<span>{t(`composer.${value}`)}</span>
					</label>
				))}
			</fieldset>
			{open ? (
				<ul id={listId} role="listbox" className={styles.suggestions} aria-label={menu.trigger === '/' ? t('composer.canned') : t('composer.mention')}>
					{suggestions.map((suggestion, index) => (
						<li
							key={suggestion.id}
							id={`${listId}-${index}`}
							role="option"
							aria-selected={index === active}
							className={styles.suggestion}
							onMouseDown={(event) => {
								event.preventDefault()
								choose(suggestion)
							}}
						>
							<strong>{suggestion.label}</strong>
							<span className={styles.suggestionHint}>{suggestion.hint}</span>
						</li>
					))}
				</ul>
			) : null}
			{noMatch ? (
				<p id={`${listId}-none`} role="status" className={styles.suggestions}>
					<strong>{t('composer.cannedNone')}</strong>
					<span className={styles.suggestionHint}>{t('composer.cannedNoneHint')}</span>
				</p>
			) : null}
			{/* Which kind is ticked decides the words, by CSS, so that they are right before the page hydrates too. */}
			<label htmlFor="composer-body" className="visually-hidden">
				<span data-kind="text">{t('composer.textPlaceholder')}</span>
				<span data-kind="note">{t('composer.notePlaceholder')}</span>
			</label>
			<textarea
				ref={field}
				id="composer-body"
				name="body"
				rows={3}
				maxLength={4096}
				value={text}
				onChange={(event) => update(event.target.value, event.target.selectionStart)}
				onKeyDown={onKeyDown}
				onBlur={() => setMenu(null)}
				placeholder={kind === 'note' ? t('composer.notePlaceholder') : t('composer.textPlaceholder')}
				className={textarea}
				role={open ? 'combobox' : undefined}
				aria-expanded={open ? true : undefined}
				aria-controls={open ? listId : undefined}
				aria-activedescendant={open ? `${listId}-${active}` : undefined}
				aria-invalid={refused ? true : undefined}
				aria-describedby={refused ? 'composer-error' : noMatch ? `${listId}-none` : 'composer-hint'}
			/>
			{refused ? (
				<p id="composer-error" role="alert" className={styles.failed}>
					{refused.error}
				</p>
			) : null}
			<div className={styles.composerFile}>
				<label htmlFor="composer-file">{t('composer.attach')}</label>
				<input
					ref={fileInput}
					id="composer-file"
					type="file"
					name="file"
					aria-describedby="composer-file-hint"
					// Said before it is sent, so a file far over the limit never leaves the browser (the page's post is capped).
					onChange={(event) => {
						const file = event.currentTarget.files?.[0]
						event.currentTarget.setCustomValidity(file && file.size > upload.maxBytes ? t('composer.fileTooLarge', { max: upload.megabytes }) : '')
						event.currentTarget.reportValidity()
					}}
				/>
				<span id="composer-file-hint" className={styles.composerFileHint}>
					{t('composer.attachHint', { max: upload.megabytes })}
				</span>
			</div>
			<div className={styles.composerRow}>
				<span id="composer-hint">
					<span data-kind="text">{t('composer.hint')}</span>
					<span data-kind="note">{t('composer.noteHint')}</span>
				</span>
				{/* Which kind is ticked decides the words, by CSS, so that they are right without JavaScript too. */}
				<button type="submit" className={button.primary} disabled={sending}>
					<span data-kind="text">{t('composer.send')}</span>
					<span data-kind="note">{t('composer.addNote')}</span>
				</button>
			</div>
		</fetcher.Form>
	)
}
