import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

// A row reads from its top: the code, then what can be done with it, beside the start of the text (over the table's middle).
export const row = style({})
globalStyle(`${row} > td`, { verticalAlign: 'top' })
// The code's column as narrow as the code, the text takes the rest (on a phone too).
export const codeCell = style({ inlineSize: '1%', whiteSpace: 'nowrap' })
// The short code as the composer takes it, `/thanks`: never broken across lines.
export const shortCode = style({
	fontFamily: 'ui-monospace, monospace',
	fontSize: '0.8125rem',
	paddingInline: '0.375rem',
	paddingBlock: '0.125rem',
	borderRadius: vars.radius,
	background: vars.color.muted,
})
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.25rem', marginBlockStart: '0.5rem' })
// The text as it will be sent: its own lines kept, long words wrapped.
export const text = style({ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', minInlineSize: '10rem' })
