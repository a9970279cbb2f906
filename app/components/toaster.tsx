import { lazy, Suspense, useEffect, useSyncExternalStore, type CSSProperties } from 'react'
import type { Toast } from '#app/.server/toast.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import * as styles from './toaster.css.ts'

// The specification's figures: 3 visible, 4 s, 14 px apart, 356 px wide (sonner's own width and
// 45 px swipe threshold), bottom-right, errors at the top, above everything.
const TOASTER = { visibleToasts: 3, duration: 4000, gap: 14, position: 'bottom-right', zIndex: 99999 } as const
/**
 * sonner's rich colours, with the text darker: its own (success, info and error about 4.3:1 on their
 * backgrounds, warning 3.1:1) are below WCAG AA's 4.5:1 for text this size. Same hues, 5.3:1 to 6.1:1.
 */
const readableColors = {
	'--success-text': 'hsl(140, 100%, 23%)',
	'--info-text': 'hsl(210, 92%, 38%)',
	'--warning-text': 'hsl(31, 92%, 30%)',
	'--error-text': 'hsl(360, 100%, 40%)',
} as CSSProperties

// sonner (10 KB of gzip) loads with the page's first toast, not with every page.
const loadSonner = () => import('sonner')
const Sonner = lazy(() => loadSonner().then((sonner) => ({ default: sonner.Toaster })))

let wanted = false
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
	listeners.add(listener)
	return () => listeners.delete(listener)
}
let announceMounted = () => {}
const mounted = new Promise<void>((resolve) => (announceMounted = resolve))

/** sonner's `toast`, once the Toaster is on the page: sonner drops a toast sent before that. */
async function sonnerToast() {
	if (!wanted) {
		wanted = true
		for (const listener of listeners) listener()
	}
	await mounted
	return (await loadSonner()).toast
}

function Mounted() {
	useEffect(() => announceMounted(), [])
	return null
}

/** The one toaster of the page, and the flash toast a server action raised for it. */
export function Toaster({ toast, dir }: { toast: Toast | null; dir: 'ltr' | 'rtl' }) {
	const shown = useSyncExternalStore(
		subscribe,
		() => wanted,
		() => false,
	)
	return (
		<>
			{shown ? (
				<Suspense fallback={null}>
					<Sonner
						visibleToasts={TOASTER.visibleToasts}
						duration={TOASTER.duration}
						gap={TOASTER.gap}
						position={TOASTER.position}
						dir={dir}
						closeButton
						richColors
						style={{ ...readableColors, zIndex: TOASTER.zIndex }}
					/>
					{/* After the Toaster in the tree, so its effect runs once sonner listens. */}
					<Mounted />
				</Suspense>
			) : null}
			<ToastMessage toast={toast} />
		</>
	)
}

/**
 * Shows a toast once: through sonner when JavaScript runs, otherwise as an accessible status
 * region in the page. For flash toasts and for what a loader reports (a list that failed to load).
 */
export function ToastMessage({ toast }: { toast: Toast | null }) {
	const hydrated = useHydrated()
	useEffect(() => {
		if (!toast) return
		// Not cancelled when the toast prop changes: a page's data may be reloaded before sonner is.
		void sonnerToast().then((showToast) => {
			const options = {
				id: toast.id,
				description: toast.description,
				position: toast.position ?? (toast.type === 'error' ? 'top-right' : undefined),
			}
			if (toast.type === 'default') showToast(toast.title, options)
			else showToast[toast.type](toast.title, options)
		})
	}, [toast])
	if (!toast || hydrated) return null
	return (
		<div role={toast.type === 'error' ? 'alert' : 'status'} className={styles.flash} data-type={toast.type}>
			<strong>{toast.title}</strong>
			{toast.description ? <p>{toast.description}</p> : null}
		</div>
	)
}

/** A loading toast that stays until `promise` settles, then turns into its outcome. */
export function toastWhile<T>(promise: Promise<T>, messages: { loading: string; success: string; error: string }) {
	void sonnerToast().then((showToast) => showToast.promise(promise, messages))
	return promise
}
