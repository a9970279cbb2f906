import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const switcher = style({ display: 'flex', alignItems: 'center', gap: '0.375rem', minInlineSize: 0 })
export const select = style({
	minBlockSize: '2.25rem',
	maxInlineSize: '16rem',
	paddingInline: '0.625rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.input}`,
	background: vars.color.background,
	fontWeight: 600,
})
