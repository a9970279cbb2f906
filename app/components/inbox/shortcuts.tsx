import { useNavigate } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { button } from '#app/components/ui/button.css.ts'
import * as styles from './inbox.css.ts'

const keys = ['j', 'k', 'r', 'n', 'e', '?'] as const

// Letters typed into a field are text, not commands.
function isTyping(target: EventTarget | null): boolean {
	return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
}

/** The conversation links of the list, in order, and the index of the open one (-1: none). */
function listPosition(): { links: HTMLAnchorElement[]; current: number } {
	const rows = [...document.querySelectorAll<HTMLLIElement>('[data-pane="list"] li[data-conversation]')]
	return { links: rows.map((row) => row.querySelector('a')!).filter(Boolean), current: rows.findIndex((row) => row.getAttribute('aria-current') === 'true') }
}

function chooseKind(kind: 'text' | 'note') {
	document.getElementById(`composer-kind-${kind}`)?.click()
	document.getElementById('composer-body')?.focus()
}

/** The inbox's keyboard: j/k next and previous conversation, r reply, n note, e resolve, ? this list. */
export function Shortcuts() {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const navigate = useNavigate()
	const dialog = useRef<HTMLDialogElement>(null)
	useEffect(() => {
		function onKeyDown(event: KeyboardEvent) {
			if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return
			if (dialog.current?.open && event.key !== '?') return
			const { key } = event
			if (key === 'j' || key === 'k') {
				const { links, current } = listPosition()
				const next = links[key === 'j' ? current + 1 : Math.max(current - 1, 0)]
				if (next) navigate(next.getAttribute('href')!, { preventScrollReset: true })
			} else if (key === 'r') chooseKind('text')
			else if (key === 'n') chooseKind('note')
			else if (key === 'e') document.querySelector<HTMLFormElement>('#resolve-form')?.requestSubmit()
			else if (key === '?') {
				if (dialog.current?.open) dialog.current.close()
				else dialog.current?.showModal()
			} else return
			event.preventDefault()
		}
		document.addEventListener('keydown', onKeyDown)
		return () => document.removeEventListener('keydown', onKeyDown)
	}, [navigate])
	return (
		<dialog ref={dialog} className={styles.dialog} aria-labelledby="shortcuts-title">
			<h2 id="shortcuts-title" className={styles.title}>
				{t('shortcuts.title')}
			</h2>
			<dl className={styles.keys}>
				{keys.map((key) => (
					<div key={key} style={{ display: 'contents' }}>
						<dt>
							<kbd className={styles.key}>{key}</kbd>
						</dt>
						<dd style={{ margin: 0 }}>{t(`shortcuts.${key === '?' ? 'help' : key}`)}</dd>
					</div>
				))}
			</dl>
			<form method="dialog">
				<button type="submit" className={button.outline}>
					{t('shortcuts.close')}
				</button>
			</form>
		</dialog>
	)
}
