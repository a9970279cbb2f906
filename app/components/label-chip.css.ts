import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const chip = style({
	display: 'inline-flex',
	alignItems: 'center',
	gap: '0.3rem',
	paddingInline: '0.5rem',
	paddingBlock: '0.0625rem',
	borderRadius: '999px',
	border: `1px solid ${vars.color.border}`,
	fontSize: '0.75rem',
	whiteSpace: 'nowrap',
})
export const swatch = style({ inlineSize: '0.625rem', blockSize: '0.625rem', borderRadius: '999px', flex: 'none' })
export const list = style({ display: 'flex', flexWrap: 'wrap', gap: '0.25rem' })
