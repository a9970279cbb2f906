import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const indicator = style({
	display: 'inline-flex',
	alignItems: 'center',
	gap: '0.375rem',
	fontSize: '0.75rem',
	color: vars.color.mutedForeground,
	whiteSpace: 'nowrap',
})
export const dot = style({
	inlineSize: '0.5rem',
	blockSize: '0.5rem',
	borderRadius: '999px',
	background: vars.color.mutedForeground,
	selectors: {
		[`${indicator}[data-tone="live"] &`]: { background: vars.color.success },
		[`${indicator}[data-tone="waiting"] &`]: { background: vars.color.warning },
		[`${indicator}[data-tone="down"] &`]: { background: vars.color.destructive },
	},
})

// Quiet: the page's own colours, a thin warning edge on the start side (the right one in Arabic).
export const paused = style({
	padding: '0.5rem 1rem',
	fontSize: '0.8125rem',
	color: vars.color.mutedForeground,
	background: vars.color.muted,
	borderInlineStart: `3px solid ${vars.color.warning}`,
	borderRadius: vars.radius,
	margin: 0,
})
export const pausedTitle = style({ color: vars.color.foreground, fontWeight: 600 })
