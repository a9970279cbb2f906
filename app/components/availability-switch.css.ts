import { style, styleVariants } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const form = style({ display: 'flex', alignItems: 'center', gap: '0.375rem', flex: 'none' })
// The select's own padding leaves room for the dot at its start (its right in Arabic).
export const field = style({ position: 'relative', display: 'flex', alignItems: 'center' })
const dotBase = style({
	position: 'absolute',
	insetInlineStart: '0.625rem',
	inlineSize: '0.625rem',
	blockSize: '0.625rem',
	borderRadius: '999px',
	pointerEvents: 'none',
	// A ring keeps the dot visible on any theme's background.
	boxShadow: `0 0 0 2px ${vars.color.background}`,
})
export const dot = styleVariants({
	online: [dotBase, { background: vars.color.success }],
	busy: [dotBase, { background: vars.color.warning }],
	offline: [dotBase, { background: vars.color.background, border: `2px solid ${vars.color.mutedForeground}` }],
})
export const select = style({
	minBlockSize: '2.25rem',
	paddingInlineStart: '1.625rem',
	paddingInlineEnd: '0.5rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.input}`,
	background: vars.color.background,
	color: vars.color.foreground,
	fontSize: '0.875rem',
})
// On the account menu's button, before the name, on a phone only (wider, the switch itself is in the bar).
export const onButton = style({
	position: 'static',
	display: 'inline-block',
	flex: 'none',
	marginInlineEnd: '0.375rem',
	'@media': { 'screen and (min-width: 60rem)': { display: 'none' } },
})
