import { useEffect } from 'react'
import { Toaster as Sonner, toast as showToast } from 'sonner'
import type { Toast } from '#app/.server/toast.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import * as styles from './toaster.css.ts'

// The specification's figures: 3 visible, 4 s, 14 px apart, 356 px wide (sonner's own width and
// 45 px swipe threshold), bottom-right, errors at the top, above everything.
const TOASTER = { visibleToasts: 3, duration: 4000, gap: 14, position: 'bottom-right', zIndex: 99999 } as const

/** Shows a server toast (from the flash cookie) through sonner, or as a status region without JavaScript. */
export function Toaster({ toast, dir }: { toast: Toast | null; dir: 'ltr' | 'rtl' }) {
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
			{toast && !hydrated ? (
				<div role={toast.type === 'error' ? 'alert' : 'status'} className={styles.flash} data-type={toast.type}>
					<strong>{toast.title}</strong>
					{toast.description ? <p>{toast.description}</p> : null}
				</div>
			) : null}
		</>
	)
}
