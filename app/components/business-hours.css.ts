import { globalStyle, style } from '@vanilla-extract/css'
import { input } from '#app/components/ui/field.css.ts'

export const title = style({ fontSize: '1.0625rem', fontWeight: 600 })
// At 390 px the table scrolls within itself rather than widening the page.
export const table = style({ display: 'block', overflowX: 'auto', maxInlineSize: '100%', borderCollapse: 'collapse' })
globalStyle(`${table} th, ${table} td`, { paddingBlock: '0.25rem', paddingInlineEnd: '0.75rem', textAlign: 'start', verticalAlign: 'top' })
export const range = style({ display: 'inline-flex', gap: '0.25rem', alignItems: 'center' })
export const time = style([input, { inlineSize: '7rem' }])
export const holidays = style([input, { maxInlineSize: '16rem', fontFamily: 'inherit' }])
