import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const controls = style({ display: 'flex', alignItems: 'center', gap: '0.5rem', flexWrap: 'wrap' })
export const group = style({
	display: 'inline-flex',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	overflow: 'hidden',
})
export const choice = style({
	border: 0,
	background: 'transparent',
	paddingInline: '0.625rem',
	paddingBlock: '0.375rem',
	fontSize: '0.8125rem',
	cursor: 'pointer',
	selectors: {
		'&[aria-pressed="true"]': { background: vars.color.primary, color: vars.color.primaryForeground },
		'&:hover:not([aria-pressed="true"])': { background: vars.color.accent },
	},
})
export const menu = style({ position: 'relative' })
export const panel = style({
	position: 'absolute',
	insetInlineEnd: 0,
	insetBlockStart: 'calc(100% + 0.25rem)',
	zIndex: 50,
	display: 'grid',
	gap: '0.75rem',
	minInlineSize: '14rem',
	padding: '1rem',
	background: vars.color.card,
	color: vars.color.cardForeground,
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	boxShadow: '0 8px 24px rgb(0 0 0 / 0.12)',
})
export const field = style({ display: 'grid', gap: '0.25rem', fontSize: '0.875rem' })
