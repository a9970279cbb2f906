import { style } from '@vanilla-extract/css'
import { input } from '#app/components/ui/field.css.ts'

export const title = style({ fontSize: '1.0625rem', fontWeight: 600 })
// A number reads left to right (dir=auto: a minus sign before it), at the start of the field in Arabic.
export const number = style([input, { maxInlineSize: '12rem', selectors: { '[dir="rtl"] &': { textAlign: 'right' } } }])
export const fieldset = style({ display: 'grid', gap: '0.5rem', border: 0, padding: 0, margin: 0, justifyItems: 'start' })
