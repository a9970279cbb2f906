import { useEffect } from 'react'
import { Toaster as Sonner, toast as showToast } from 'sonner'
import type { Toast } from '#app/.server/toast.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import * as styles from './toaster.css.ts'

// The specification's figures: 3 visible, 4 s, 14 px apart, 356 px wide (sonner's own width and
// 45 px swipe threshold), bottom-right, errors at the top, above everything.
const TOASTER = { visibleToasts: 3, duration: 4000, gap: 14, position: 'bottom-right', zIndex: 99999 } as const

/** The one toaster of the page, and the flash toast a server action raised for it. */
export function Toaster({ toast, dir }: { toast: Toast | null; dir: 'ltr' | 'rtl' }) {
	return (
		<>
			<Sonner
				visibleToasts={TOASTER.visibleToasts}
				duration={TOASTER.duration}
				gap={TOASTER.gap}
				position={TOASTER.position}
				dir={dir}
				closeButton
				richColors
				style={{ zIndex: TOASTER.zIndex }}
			/>
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
		// Deferred a tick so the Toaster is mounted before the first toast arrives.
		const timer = setTimeout(() => {
			const options = {
				id: toast.id,
				description: toast.description,
				position: toast.position ?? (toast.type === 'error' ? 'top-right' : undefined),
			}
			if (toast.type === 'default') showToast(toast.title, options)
			else showToast[toast.type](toast.title, options)
		}, 0)
		return () => clearTimeout(timer)
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
	showToast.promise(promise, messages)
	return promise
}
