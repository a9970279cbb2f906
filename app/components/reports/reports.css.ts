import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

// The reports page (the dashboard's index). Its charts (charts.tsx, beside this file) carry no
// classes of their own, so unit tests can render them: they are styled here, inside `report`.
export const report = style({ display: 'grid', gap: '1.5rem' })

export const filters = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'flex-end' })
export const filter = style({ display: 'grid', gap: '0.25rem', fontSize: '0.8125rem', minInlineSize: '10rem' })
// The help under the whole form: a line of its own.
export const formHelp = style({ flexBasis: '100%', margin: 0, fontSize: '0.8125rem', color: vars.color.mutedForeground })

export const cards = style({
	display: 'grid',
	gap: '0.75rem',
	gridTemplateColumns: 'repeat(auto-fill, minmax(13rem, 1fr))',
	margin: 0,
	padding: 0,
	listStyle: 'none',
})
export const card = style({
	display: 'grid',
	gap: '0.25rem',
	alignContent: 'start',
	padding: '1rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
})
export const cardLabel = style({ fontSize: '0.8125rem', color: vars.color.mutedForeground })
export const cardValue = style({
	fontSize: '1.5rem',
	fontWeight: 700,
	fontVariantNumeric: 'tabular-nums',
	selectors: { '&[data-empty="true"]': { fontSize: '1rem', fontWeight: 500, color: vars.color.mutedForeground } },
})
export const cardChange = style({
	fontSize: '0.8125rem',
	color: vars.color.mutedForeground,
	selectors: { '&[data-good="true"]': { color: vars.color.success }, '&[data-good="false"]': { color: vars.color.destructive } },
})

// A card that counts the whole workspace whatever the filters says so, and why.
export const cardNote = style({
	fontSize: '0.75rem',
	color: vars.color.mutedForeground,
	borderBlockStart: `1px dashed ${vars.color.border}`,
	paddingBlockStart: '0.375rem',
	marginBlockStart: '0.25rem',
})

export const charts = style({ display: 'grid', gap: '1.5rem', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 30rem), 1fr))' })
export const chart = style({
	display: 'grid',
	gap: '0.75rem',
	alignContent: 'start',
	minInlineSize: 0,
	padding: '1rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
})
export const chartHeader = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'baseline', justifyContent: 'space-between' })
export const legend = style({ display: 'flex', gap: '1rem', margin: 0, padding: 0, listStyle: 'none', fontSize: '0.8125rem' })
export const swatch = style({
	display: 'inline-block',
	inlineSize: '0.75rem',
	blockSize: '0.75rem',
	borderRadius: '2px',
	marginInlineEnd: '0.375rem',
	verticalAlign: 'middle',
})
export const opened = style({ background: vars.color.primary })
export const resolved = style({ background: vars.color.success })
export const problem = style({
	padding: '0.75rem 1rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.destructive}`,
	color: vars.color.destructive,
})
export const note = style({ fontSize: '0.8125rem', color: vars.color.mutedForeground })

globalStyle(`${report} details > summary`, { cursor: 'pointer', fontSize: '0.875rem' })
globalStyle(`${report} [data-table-wrapper]`, { overflowX: 'auto', marginBlockStart: '0.5rem' })
globalStyle(`${report} table`, { inlineSize: '100%', borderCollapse: 'collapse', fontSize: '0.875rem', fontVariantNumeric: 'tabular-nums' })
globalStyle(`${report} th, ${report} td`, {
	textAlign: 'start',
	paddingInline: '0.5rem',
	paddingBlock: '0.375rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
	whiteSpace: 'nowrap',
})
globalStyle(`${report} thead th`, { fontWeight: 600, color: vars.color.mutedForeground })
globalStyle(`${report} tbody th`, { fontWeight: 500 })
