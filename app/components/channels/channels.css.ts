import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const check = style({ display: 'flex', gap: '0.5rem', alignItems: 'flex-start', fontSize: '0.875rem' })

export const kinds = style({
	listStyle: 'none',
	margin: 0,
	padding: 0,
	display: 'grid',
	gap: '0.75rem',
	gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))',
})
export const kind = style({
	display: 'grid',
	gridTemplateColumns: 'auto 1fr',
	gap: '0.25rem 0.75rem',
	alignItems: 'start',
	// As tall as the tallest in its row, its text at the top.
	blockSize: '100%',
	alignContent: 'start',
	padding: '0.875rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
	color: vars.color.cardForeground,
	textDecoration: 'none',
})
export const kindAvailable = style([kind, { borderColor: vars.color.primary, selectors: { '&:hover': { background: vars.color.accent } } }])
export const kindName = style({ fontWeight: 600 })
export const kindText = style({ gridColumn: '2', fontSize: '0.8125rem', color: vars.color.mutedForeground })
// The chosen kind above its form: its mark, the form's title, and the way back to the six.
export const chosen = style({ display: 'flex', gap: '0.75rem', alignItems: 'center', flexWrap: 'wrap' })
export const otherKind = style({ marginInlineStart: 'auto', fontSize: '0.875rem' })

export const icon = style({
	display: 'inline-grid',
	placeItems: 'center',
	inlineSize: '2rem',
	blockSize: '2rem',
	borderRadius: '50%',
	color: '#fff',
	fontSize: '0.75rem',
	fontWeight: 700,
	gridRow: 'span 2',
})
export const kindCell = style({ display: 'flex', gap: '0.5rem', alignItems: 'center' })
export const address = style({ display: 'flex', gap: '0.375rem', alignItems: 'center', flexWrap: 'wrap' })
export const url = style({ fontFamily: 'ui-monospace, monospace', fontSize: '0.8125rem', overflowWrap: 'anywhere', direction: 'ltr', unicodeBidi: 'isolate' })
export const snippet = style({
	fontFamily: 'ui-monospace, monospace',
	fontSize: '0.8125rem',
	inlineSize: '100%',
	minBlockSize: '4rem',
	direction: 'ltr',
	padding: '0.5rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.input}`,
	background: vars.color.muted,
})
export const statusDetail = style({ marginBlockStart: '0.25rem', fontSize: '0.75rem', color: vars.color.destructive })

/** A new API channel's secret, shown once: set apart from the page so it is not missed. */
export const created = style({
	display: 'grid',
	gap: '0.5rem',
	padding: '1rem',
	border: `1px solid ${vars.color.primary}`,
	borderRadius: '0.5rem',
	background: vars.color.accent,
})
export const createdLabel = style({ fontWeight: 600, fontSize: '0.875rem' })
export const secret = style({
	flex: '1 1 16rem',
	minInlineSize: 0,
	padding: '0.375rem 0.5rem',
	fontFamily: 'ui-monospace, monospace',
	fontSize: '0.8125rem',
	direction: 'ltr',
	border: `1px solid ${vars.color.border}`,
	borderRadius: '0.375rem',
})
