import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const field = style({ display: 'grid', gap: '0.375rem' })
export const label = style({ fontSize: '0.875rem', fontWeight: 500 })
export const input = style({
	inlineSize: '100%',
	minBlockSize: '2.5rem',
	paddingInline: '0.75rem',
	paddingBlock: '0.5rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.input}`,
	background: vars.color.background,
	fontSize: '0.9375rem',
	selectors: {
		'&[aria-invalid="true"]': { borderColor: vars.color.destructive },
		'&:focus-visible': { outline: `2px solid ${vars.color.ring}`, outlineOffset: 1 },
	},
})
export const help = style({ fontSize: '0.8125rem', color: vars.color.mutedForeground })
export const errors = style({
	margin: 0,
	padding: 0,
	listStyle: 'none',
	fontSize: '0.8125rem',
	color: vars.color.destructive,
	display: 'grid',
	gap: '0.125rem',
})
export const formErrors = style({
	padding: '0.625rem 0.75rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.destructive}`,
	color: vars.color.destructive,
	fontSize: '0.875rem',
})
export const form = style({ display: 'grid', gap: '1rem' })
export const textarea = style([input, { minBlockSize: '5rem', resize: 'vertical', fontFamily: 'inherit' }])
export const choices = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', border: 0, padding: 0, margin: 0 })
export const choice = style({ display: 'inline-flex', alignItems: 'center', gap: '0.375rem', fontSize: '0.875rem' })
