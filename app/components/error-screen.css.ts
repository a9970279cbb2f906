import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const screen = style({
	minBlockSize: '100vh',
	display: 'grid',
	placeItems: 'center',
	padding: '2rem',
	textAlign: 'center',
})
export const status = style({ fontSize: '6rem', fontWeight: 800, lineHeight: 1, letterSpacing: '-0.04em' })
export const title = style({ fontSize: '1.5rem', fontWeight: 700, marginBlockStart: '0.5rem' })
export const message = style({ color: vars.color.mutedForeground, marginBlockStart: '0.75rem', maxInlineSize: '36rem' })
export const detail = style({ fontFamily: 'ui-monospace, monospace', fontSize: '0.875rem', marginBlockStart: '1rem', overflowWrap: 'anywhere' })
export const actions = style({ display: 'flex', gap: '0.75rem', justifyContent: 'center', marginBlockStart: '1.5rem', flexWrap: 'wrap' })
