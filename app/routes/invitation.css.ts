import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const notice = style({
	padding: '0.75rem 1rem',
	borderRadius: vars.radius,
	background: vars.color.muted,
	fontSize: '0.875rem',
	overflowWrap: 'anywhere',
})

export const problem = style([notice, { display: 'grid', gap: '0.25rem', background: 'transparent', border: `1px solid ${vars.color.destructive}` }])

// One under the other, the whole width of the card: a long workspace name wraps instead of overflowing.
export const choices = style({ display: 'grid', gap: '0.75rem' })
export const choice = style({ whiteSpace: 'normal', textAlign: 'center', paddingBlock: '0.5rem', overflowWrap: 'anywhere' })
