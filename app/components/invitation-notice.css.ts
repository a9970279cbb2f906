import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const notice = style({
	display: 'grid',
	gap: '0.25rem',
	padding: '0.75rem 1rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.primary}`,
	fontSize: '0.875rem',
	selectors: { '&[data-tone="error"]': { borderColor: vars.color.destructive } },
})
