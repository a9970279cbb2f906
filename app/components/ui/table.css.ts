import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const wrapper = style({ overflowX: 'auto', border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: vars.color.card })
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
export const pager = style({ display: 'flex', gap: '0.5rem', alignItems: 'center', justifyContent: 'space-between', fontSize: '0.875rem', color: vars.color.mutedForeground })
