import { style } from '@vanilla-extract/css'
import { input } from '#app/components/ui/field.css.ts'

export const title = style({ fontSize: '1.0625rem', fontWeight: 600 })
export const days = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '0.5rem' })
// A day's name holds its column on a wide screen; on a phone its ranges wrap under it, nothing scrolls.
export const day = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.375rem 0.75rem' })
export const dayName = style({ display: 'inline-flex', alignItems: 'center', gap: '0.375rem', flex: '0 0 7rem', fontSize: '0.875rem', fontWeight: 500 })
export const range = style({ display: 'inline-flex', gap: '0.25rem', alignItems: 'center' })
// Wide enough for a 12-hour clock's "09:00 AM" and its picker's icon.
export const time = style([input, { inlineSize: '7.5rem', paddingInline: '0.375rem' }])
export const dayErrors = style({ flexBasis: '100%' })
export const holidays = style([input, { maxInlineSize: '16rem', fontFamily: 'inherit' }])
