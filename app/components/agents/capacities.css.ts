import { style } from '@vanilla-extract/css'
import { input as fieldInput } from '#app/components/ui/field.css.ts'
import { vars } from '#app/styles/theme.css.ts'

export const section = style({ display: 'grid', gap: '0.75rem' })
export const title = style({ fontSize: '1.0625rem', fontWeight: 600 })
export const lead = style({ color: vars.color.mutedForeground })
export const form = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.5rem' })
// Wide enough for the placeholder ("No limit", "10 open conversations") without widening the table.
// A number reads left to right (a minus sign before it), at the start of the field in Arabic.
export const input = style([fieldInput, { inlineSize: '13rem', maxInlineSize: '100%', selectors: { '[dir="rtl"] &': { textAlign: 'right' } } }])
export const error = style({ flexBasis: '100%', margin: 0 })
