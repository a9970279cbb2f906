import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

const phone = 'screen and (max-width: 47.99rem)'
// Beside the list only where the list keeps room for all its columns (issue 27: "Added" and "Last activity" at 1440 px); above it elsewhere.
const roomy = 'screen and (min-width: 110rem)'

export const layout = style({
	display: 'grid',
	gap: '1.5rem',
	gridTemplateColumns: 'minmax(0, 1fr)',
	'@media': { [roomy]: { gridTemplateColumns: 'minmax(0, 1fr) 22rem' } },
})
export const side = style({ display: 'grid', maxInlineSize: '44rem', '@media': { [roomy]: { gridColumn: 2, gridRow: 1, maxInlineSize: 'none' } } })
export const selectAll = style({ display: 'inline-flex', alignItems: 'center', gap: '0.5rem', whiteSpace: 'nowrap', marginInlineEnd: '0.75rem' })
// On a phone a row is its box and name on one line, then the other cells under them.
export const rows = style({})
globalStyle(`${rows} > tbody > tr`, { '@media': { [phone]: { gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: '0.75rem', alignItems: 'center' } } })
globalStyle(`${rows} > tbody > tr > td`, { '@media': { [phone]: { gridColumn: '1 / -1' } } })
export const pick = style({ '@media': { 'screen and (min-width: 48rem)': { inlineSize: '1%' } } })
globalStyle(`${rows} > tbody > tr > td:first-child`, { '@media': { [phone]: { gridColumn: '1 / 2' } } })
globalStyle(`${rows} > tbody > tr > td:nth-child(2)`, { '@media': { [phone]: { gridColumn: '2 / 3' } } })
export const date = style({ whiteSpace: 'nowrap', '@media': { [phone]: { whiteSpace: 'normal' } } })
export const importPanel = style({ maxInlineSize: '44rem' })
export const importForm = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '1rem' })
// A file input is wider than a phone's form by itself.
export const fileField = style({ display: 'grid', gap: '0.375rem', gridTemplateColumns: 'minmax(0, 1fr)' })
globalStyle(`${fileField} > input`, { maxInlineSize: '100%', fontSize: '0.875rem' })
export const filters = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'flex-end' })
export const filter = style({ display: 'grid', gap: '0.25rem', fontSize: '0.8125rem' })
export const avatar = style({
	display: 'inline-grid',
	placeItems: 'center',
	inlineSize: '2rem',
	blockSize: '2rem',
	borderRadius: '999px',
	color: '#fff',
	fontWeight: 600,
	fontSize: '0.8125rem',
	marginInlineEnd: '0.5rem',
	flex: 'none',
})
export const person = style({ display: 'flex', alignItems: 'center', minInlineSize: '12rem' })
export const sortLink = style({ textDecoration: 'none', selectors: { '&[aria-sort]': { fontWeight: 700 } } })
export const bulk = style({
	display: 'flex',
	flexWrap: 'wrap',
	gap: '0.5rem',
	alignItems: 'center',
	padding: '0.75rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
})
// The bulk bar's choices take their own width, on one line where there is room.
globalStyle(`${bulk} select`, { inlineSize: 'auto', maxInlineSize: '100%' })
export const panel = style({
	display: 'grid',
	gridTemplateColumns: 'minmax(0, 1fr)',
	gap: '0.75rem',
	alignContent: 'start',
	padding: '1.25rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
})
export const facts = style({
	display: 'grid',
	gridTemplateColumns: 'max-content 1fr',
	gap: '0.375rem 0.75rem',
	margin: 0,
	fontSize: '0.875rem',
	overflowWrap: 'anywhere',
})
export const term = style({ color: vars.color.mutedForeground })
export const subheading = style({ margin: '0 0 0.25rem', fontSize: '0.875rem', fontWeight: 600 })
export const identities = style({ margin: 0, paddingInlineStart: '1.25rem', fontSize: '0.875rem', display: 'grid', gap: '0.25rem', overflowWrap: 'anywhere' })
export const report = style({ display: 'grid', gap: '0.5rem', fontSize: '0.875rem' })
export const optedOut = style({
	display: 'grid',
	gap: '0.5rem',
	justifyItems: 'start',
	padding: '0.75rem',
	borderInlineStart: `3px solid ${vars.color.warning}`,
	background: vars.color.muted,
	fontSize: '0.875rem',
})
