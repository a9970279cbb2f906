import { style } from '@vanilla-extract/css'
import { field as fieldStyle } from './ui/field.css.ts'

// The longest country's name never widens the form: the select shrinks to it.
export const field = style([fieldStyle, { gridTemplateColumns: 'minmax(0, 1fr)' }])
