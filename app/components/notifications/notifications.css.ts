import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

const wide = 'screen and (min-width: 60rem)'

// The page's list and the bell's: one row each, the line then its time; an unread one has a dot and stronger text.
export const list = style({
	listStyle: 'none',
	margin: 0,
	padding: 0,
	display: 'grid',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	background: vars.color.card,
	maxInlineSize: '48rem',
})
export const compactList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', maxBlockSize: 'min(24rem, 60vh)', overflowY: 'auto' })
globalStyle(`${list} > li + li, ${compactList} > li + li`, { borderBlockStart: `1px solid ${vars.color.border}` })
export const item = style({
	display: 'grid',
	gridTemplateColumns: '0.5rem minmax(0, 1fr)',
	columnGap: '0.625rem',
	rowGap: '0.125rem',
	alignItems: 'baseline',
	paddingInline: '0.75rem',
	paddingBlock: '0.625rem',
	textDecoration: 'none',
	color: 'inherit',
	fontSize: '0.875rem',
	selectors: { '&:hover': { background: vars.color.accent }, '&[data-unread="true"]': { fontWeight: 600 } },
})
export const dot = style({
	inlineSize: '0.5rem',
	blockSize: '0.5rem',
	borderRadius: '50%',
	alignSelf: 'center',
	selectors: { [`${item}[data-unread="true"] &`]: { background: vars.color.primary } },
})
export const text = style({ overflowWrap: 'anywhere' })
export const time = style({ gridColumn: 2, fontSize: '0.75rem', fontWeight: 400, color: vars.color.mutedForeground })

// The bell: a link without JavaScript, a button opening its menu with it.
export const bell = style({ position: 'relative', flex: 'none' })
// Narrow, its count on its corner: the phone's top bar keeps one row beside the workspace switcher (and its button without JavaScript).
export const bellButton = style({ position: 'relative', display: 'inline-flex', alignItems: 'center', paddingInline: '0.375rem' })
export const badge = style({
	position: 'absolute',
	insetBlockStart: '0.125rem',
	insetInlineEnd: '0.0625rem',
	minInlineSize: '1.125rem',
	blockSize: '1.125rem',
	paddingInline: '0.25rem',
	borderRadius: '999px',
	background: vars.color.destructive,
	color: vars.color.destructiveForeground,
	fontSize: '0.6875rem',
	fontWeight: 700,
	lineHeight: '1.125rem',
	textAlign: 'center',
	fontVariantNumeric: 'tabular-nums',
})
// On a phone the menu spans the screen under the top bar; on a wide one it hangs from the bell, towards the page.
export const panel = style({
	position: 'fixed',
	insetInline: '0.5rem',
	insetBlockStart: '3.5rem',
	zIndex: 50,
	display: 'grid',
	gap: '0.25rem',
	padding: '0.5rem',
	background: vars.color.card,
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	boxShadow: '0 8px 24px rgb(0 0 0 / 0.12)',
	'@media': {
		[wide]: { position: 'absolute', insetInlineStart: 'auto', insetInlineEnd: 0, insetBlockStart: 'calc(100% + 0.25rem)', inlineSize: '24rem' },
	},
})
export const panelHead = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '0.5rem', paddingInline: '0.25rem' })
export const panelTitle = style({ fontSize: '0.9375rem', fontWeight: 600 })
export const panelFoot = style({
	display: 'flex',
	justifyContent: 'space-between',
	gap: '0.5rem',
	flexWrap: 'wrap',
	paddingBlockStart: '0.25rem',
	borderBlockStart: `1px solid ${vars.color.border}`,
})
export const panelEmpty = style({ padding: '1rem', textAlign: 'center', color: vars.color.mutedForeground, fontSize: '0.875rem' })

// The settings' grid: kinds in rows, media in columns. On a phone each kind is a block: its name, then its three
// boxes, each followed by its medium's name (the columns' headings stay for screen readers, which name each box by them).
const phone = 'screen and (max-width: 39.99rem)'
export const gridBox = style({ overflowX: 'auto', border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, maxInlineSize: '44rem' })
export const grid = style({ borderCollapse: 'collapse', inlineSize: '100%', fontSize: '0.875rem' })
globalStyle(`${grid} th, ${grid} td`, { paddingInline: '0.75rem', paddingBlock: '0.625rem', borderBlockEnd: `1px solid ${vars.color.border}` })
globalStyle(`${grid} tr:last-child > *`, { borderBlockEnd: 0 })
globalStyle(`${grid} thead th`, { fontWeight: 600, fontSize: '0.8125rem', textAlign: 'center' })
globalStyle(`${grid} thead th:first-child`, { textAlign: 'start' })
export const kindCell = style({ textAlign: 'start', fontWeight: 400, minInlineSize: '10rem' })
export const checkCell = style({ textAlign: 'center' })
globalStyle(`${checkCell} input`, { inlineSize: '1.125rem', blockSize: '1.125rem' })
globalStyle(`${grid} thead`, {
	'@media': { [phone]: { position: 'absolute', inlineSize: '1px', blockSize: '1px', overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } },
})
globalStyle(`${grid} tbody, ${grid} tbody tr`, { '@media': { [phone]: { display: 'block' } } })
globalStyle(`${grid} tbody tr`, {
	'@media': { [phone]: { display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', padding: '0.75rem', borderBlockEnd: `1px solid ${vars.color.border}` } },
})
globalStyle(`${grid} tbody tr:last-child`, { '@media': { [phone]: { borderBlockEnd: 0 } } })
globalStyle(`${grid} tbody th, ${grid} tbody td`, { '@media': { [phone]: { padding: 0, borderBlockEnd: 0 } } })
globalStyle(`${grid} tbody th`, { '@media': { [phone]: { flexBasis: '100%', minInlineSize: 0, fontWeight: 600 } } })
globalStyle(`${grid} tbody td`, { '@media': { [phone]: { display: 'inline-flex', alignItems: 'center', gap: '0.375rem' } } })
globalStyle(`${grid} tbody td::after`, { '@media': { [phone]: { content: 'attr(data-medium)', fontSize: '0.8125rem' } } })
