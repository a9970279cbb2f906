import { style } from '@vanilla-extract/css'

export const title = style({ fontSize: '1.0625rem', fontWeight: 600 })
export const number = style({ maxInlineSize: '12rem' })
export const fieldset = style({ display: 'grid', gap: '0.5rem', border: 0, padding: 0, margin: 0, justifyItems: 'start' })
