import { style } from '@vanilla-extract/css'
import { input as fieldInput } from '#app/components/ui/field.css.ts'
import { vars } from '#app/styles/theme.css.ts'

export const section = style({ display: 'grid', gap: '0.75rem' })
export const title = style({ fontSize: '1.0625rem', fontWeight: 600 })
export const lead = style({ color: vars.color.mutedForeground })
export const form = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.5rem' })
// Held to what the placeholder needs, so that its button stays beside it; a number reads left to right (dir=auto), at the field's start in Arabic.
export const input = style([fieldInput, { maxInlineSize: '12rem', selectors: { '[dir="rtl"] &': { textAlign: 'right' } } }])
export const error = style({ flexBasis: '100%', margin: 0 })
