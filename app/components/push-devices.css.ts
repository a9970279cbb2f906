import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const section = style({ display: 'grid', gap: '1rem' })
export const lead = style({ color: vars.color.mutedForeground })
/** "This browser": its state and its button, side by side, wrapping on a phone. */
export const here = style({
	display: 'flex',
	flexWrap: 'wrap',
	alignItems: 'center',
	gap: '0.75rem',
	padding: '0.75rem',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	selectors: { '&[hidden]': { display: 'none' } },
})
export const error = style({ color: vars.color.destructive, flexBasis: '100%' })
export const list = style({ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: '0.75rem' })
export const item = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '1rem', flexWrap: 'wrap' })
export const dates = style({ color: vars.color.mutedForeground, fontSize: '0.875rem' })
export const actions = style({ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' })
