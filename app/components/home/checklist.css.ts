import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const steps = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '0.75rem' })
export const step = style({ display: 'flex', gap: '0.75rem', alignItems: 'flex-start' })
export const mark = style({
	flex: 'none',
	display: 'grid',
	placeItems: 'center',
	inlineSize: '1.5rem',
	blockSize: '1.5rem',
	borderRadius: '999px',
	border: `2px solid ${vars.color.border}`,
	fontSize: '0.875rem',
	selectors: { [`${step}[data-done="true"] &`]: { background: vars.color.primary, borderColor: vars.color.primary, color: vars.color.primaryForeground } },
})
export const stepTitle = style({ fontWeight: 600 })
export const stepText = style({ fontSize: '0.875rem', color: vars.color.mutedForeground })
