import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const form = style({ display: 'grid', gap: '1.25rem', maxInlineSize: '52rem' })
export const settings = style({ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 14rem), 1fr))', alignItems: 'start' })
export const group = style({ display: 'grid', gap: '0.75rem', border: 0, padding: 0, margin: 0, minInlineSize: 0 })
export const groupTitle = style({ fontSize: '1rem', fontWeight: 600, paddingInline: 0 })
export const rows = style({ display: 'grid', gap: '0.75rem', listStyle: 'none', padding: 0, margin: 0 })
export const row = style({
	display: 'grid',
	gap: '0.75rem',
	padding: '0.875rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	borderInlineStart: `3px solid ${vars.color.primary}`,
	background: vars.color.background,
	minInlineSize: 0,
})
export const rowHead = style({ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'flex-end' })
export const rowKind = style({ flex: '1 1 12rem', minInlineSize: 0 })
export const rowFields = style({ display: 'grid', gap: '0.75rem', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 12rem), 1fr))', alignItems: 'start' })
export const wide = style({ gridColumn: '1 / -1' })
export const checks = style({ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' })
export const muted = style({ color: vars.color.mutedForeground, fontSize: '0.875rem' })
export const order = style({ fontVariantNumeric: 'tabular-nums', color: vars.color.mutedForeground })
export const state = style({ display: 'inline-flex', alignItems: 'center', gap: '0.375rem' })
export const on = style({ color: vars.color.primary, fontWeight: 600 })
export const runs = style({ display: 'grid', gap: '0.75rem', listStyle: 'none', padding: 0, margin: 0 })
export const run = style({
	display: 'grid',
	gap: '0.375rem',
	paddingBlock: '0.75rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
	fontSize: '0.875rem',
})
export const runHead = style({ display: 'flex', gap: '0.5rem 1rem', flexWrap: 'wrap', alignItems: 'baseline' })
export const runActions = style({ display: 'grid', gap: '0.25rem', margin: 0, paddingInlineStart: '1.25rem' })
export const failed = style({ color: vars.color.destructive })
export const outcome = style({
	display: 'inline-block',
	paddingInline: '0.5rem',
	borderRadius: '999px',
	border: `1px solid ${vars.color.border}`,
	fontSize: '0.75rem',
	fontWeight: 600,
})
export const bare = style({ border: 0, padding: 0, margin: 0, minInlineSize: 0 })
