import { useEffect, useRef, type ReactNode } from 'react'
import * as styles from './inbox.css.ts'

// Room kept between a panel and the window's or the header's edge, and under its button.
const margin = 8
const gap = 4

/**
 * Under its button, its start edge at the button's, pulled back so that it stays inside both the header
 * it is placed in and the window, in either direction (as custom properties of the panel's logical insets).
 */
function place(details: HTMLDetailsElement, panel: HTMLElement) {
	const container = panel.offsetParent
	const summary = details.querySelector('summary')
	if (!(container instanceof HTMLElement) || !summary) return
	const box = container.getBoundingClientRect()
	const button = summary.getBoundingClientRect()
	const rtl = getComputedStyle(container).direction === 'rtl'
	const lowest = Math.max(box.left, 0) + margin
	const highest = Math.min(box.right, document.documentElement.clientWidth) - margin
	const width = Math.min(panel.offsetWidth, highest - lowest)
	const left = Math.max(lowest, Math.min(rtl ? button.right - width : button.left, highest - width))
	panel.style.setProperty('--popover-start', `${rtl ? box.right - (left + width) : left - box.left}px`)
	panel.style.setProperty('--popover-end', 'auto')
	panel.style.setProperty('--popover-top', `${button.bottom - box.top + gap}px`)
}

/**
 * A menu in a `<details>`: it opens without JavaScript, its panel at the inline end of the header it sits
 * in and never wider (CSS), so always inside the screen. With JavaScript the panel sits under its button,
 * inside the window in both directions; Escape, a click outside and its own form's submission close it,
 * and Escape and the submission return the focus to its button.
 */
export function Popover({
	label,
	children,
	open,
	className,
	summaryClassName,
}: {
	label: ReactNode
	children: ReactNode
	open?: boolean
	className?: string
	summaryClassName?: string
}) {
	const details = useRef<HTMLDetailsElement>(null)
	const panel = useRef<HTMLDivElement>(null)
	useEffect(() => {
		const element = details.current
		const content = panel.current
		if (!element || !content) return
		const summary = element.querySelector('summary')
		const close = (refocus: boolean) => {
			if (!element.open) return
			element.open = false
			if (refocus) summary?.focus()
		}
		const onToggle = () => {
			if (element.open) place(element, content)
		}
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== 'Escape' || !element.open) return
			event.preventDefault()
			event.stopPropagation()
			close(true)
		}
		const onPointerDown = (event: PointerEvent) => {
			if (event.target instanceof Node && !element.contains(event.target)) close(false)
		}
		// After its own action (the submit event comes before the form is sent, and the focus goes back at once).
		const onSubmit = () => close(true)
		const onResize = () => {
			if (element.open) place(element, content)
		}
		if (element.open) place(element, content)
		element.addEventListener('toggle', onToggle)
		element.addEventListener('keydown', onKeyDown)
		element.addEventListener('submit', onSubmit)
		document.addEventListener('pointerdown', onPointerDown)
		window.addEventListener('resize', onResize)
		return () => {
			element.removeEventListener('toggle', onToggle)
			element.removeEventListener('keydown', onKeyDown)
			element.removeEventListener('submit', onSubmit)
			document.removeEventListener('pointerdown', onPointerDown)
			window.removeEventListener('resize', onResize)
		}
	}, [])
	return (
		<details ref={details} className={`${styles.menu} ${className ?? ''}`} open={open || undefined}>
			<summary className={summaryClassName}>{label}</summary>
			<div ref={panel} className={styles.menuPanel}>
				{children}
			</div>
		</details>
	)
}
