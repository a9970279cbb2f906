import { style } from '@vanilla-extract/css'

/** A token's rename form takes its row's whole width. */
export const renameForm = style({ flex: '1 1 100%' })
