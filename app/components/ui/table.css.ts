import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

// Positioned, so that what is absolutely placed inside (a visually hidden header) scrolls with the table instead of widening the page.
export const wrapper = style({
	position: 'relative',
	overflowX: 'auto',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	background: vars.color.card,
})
export const table = style({ inlineSize: '100%', borderCollapse: 'collapse', fontSize: '0.875rem' })
export const th = style({
	textAlign: 'start',
	fontWeight: 600,
	color: vars.color.mutedForeground,
	paddingInline: '0.75rem',
	paddingBlock: '0.625rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
	whiteSpace: 'nowrap',
})
export const td = style({ paddingInline: '0.75rem', paddingBlock: '0.625rem', borderBlockEnd: `1px solid ${vars.color.border}`, verticalAlign: 'middle' })
export const actions = style({ display: 'flex', gap: '0.375rem', flexWrap: 'wrap', alignItems: 'center' })
export const badge = style({
	display: 'inline-block',
	marginInlineStart: '0.5rem',
	paddingInline: '0.5rem',
	paddingBlock: '0.0625rem',
	borderRadius: '999px',
	background: vars.color.secondary,
	color: vars.color.secondaryForeground,
	fontSize: '0.75rem',
	fontWeight: 500,
})
export const empty = style({ padding: '2rem', textAlign: 'center', color: vars.color.mutedForeground })
export const toolbar = style({ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between' })
export const search = style({ display: 'flex', gap: '0.5rem', alignItems: 'center' })
export const pager = style({
	display: 'flex',
	gap: '0.5rem',
	alignItems: 'center',
	justifyContent: 'space-between',
	fontSize: '0.875rem',
	color: vars.color.mutedForeground,
})

const phone = 'screen and (max-width: 47.99rem)'

/**
 * With `table`: on a phone each row becomes a block and each cell a line that starts with its column's
 * name (`data-label`), so nothing scrolls sideways and a row's actions stay in sight.
 */
export const list = style({ '@media': { [phone]: { display: 'block' } } })
globalStyle(`${list} > thead`, {
	'@media': { [phone]: { position: 'absolute', inlineSize: 1, blockSize: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } },
})
globalStyle(`${list} > tbody, ${list} > tbody > tr`, { '@media': { [phone]: { display: 'block' } } })
globalStyle(`${list} > tbody > tr`, {
	'@media': {
		[phone]: { display: 'grid', gap: '0.375rem', paddingInline: '0.75rem', paddingBlock: '0.75rem', borderBlockEnd: `1px solid ${vars.color.border}` },
	},
})
globalStyle(`${list} > tbody > tr:last-child`, { '@media': { [phone]: { borderBlockEnd: 0 } } })
globalStyle(`${list} > tbody > tr > td`, { '@media': { [phone]: { display: 'block', padding: 0, border: 0, overflowWrap: 'anywhere' } } })
globalStyle(`${list} > tbody > tr > td[data-label]`, {
	'@media': { [phone]: { display: 'grid', gridTemplateColumns: 'minmax(6rem, 35%) minmax(0, 1fr)', columnGap: '0.75rem', alignItems: 'baseline' } },
})
globalStyle(`${list} > tbody > tr > td[data-label]::before`, {
	'@media': { [phone]: { content: 'attr(data-label)', gridRow: '1 / span 4', color: vars.color.mutedForeground, fontSize: '0.8125rem' } },
})
globalStyle(`${list} > tbody > tr > td[data-label] > *`, { '@media': { [phone]: { gridColumn: 2, justifySelf: 'start', maxInlineSize: '100%' } } })
// An empty cell says nothing on a phone.
globalStyle(`${list} > tbody > tr > td:empty`, { '@media': { [phone]: { display: 'none' } } })
