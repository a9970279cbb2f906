import { style } from '@vanilla-extract/css'

/** The filters in a row that wraps, their button level with the fields. */
export const filters = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'end' })
