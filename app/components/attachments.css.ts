import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

// A message's files: images at most a bubble wide and 20rem high, files as links with their size.
export const attachments = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '0.375rem', whiteSpace: 'normal' })
export const attachmentImageLink = style({ display: 'inline-block', borderRadius: vars.radius, overflow: 'hidden' })
export const attachmentImage = style({
	display: 'block',
	maxInlineSize: '100%',
	maxBlockSize: '20rem',
	blockSize: 'auto',
	minInlineSize: '4rem',
	minBlockSize: '3rem',
	objectFit: 'contain',
	background: vars.color.background,
})
export const attachmentFile = style({
	display: 'inline-flex',
	alignItems: 'baseline',
	gap: '0.375rem',
	color: 'inherit',
	textDecoration: 'underline',
	textUnderlineOffset: '0.15em',
})
export const attachmentSize = style({ fontSize: '0.75rem', opacity: 0.8, textDecoration: 'none' })
export const attachmentMissing = style({ fontStyle: 'italic', fontSize: '0.8125rem' })
