import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const ratings = style({ display: 'grid', gap: '0.5rem', fontSize: '0.875rem' })
export const heading = style({ margin: 0, fontSize: '0.875rem', fontWeight: 600 })
export const summary = style({ margin: 0 })
export const muted = style({ color: vars.color.mutedForeground })
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '0.5rem' })
export const line = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '0.25rem 0.625rem' })
// The score's colour says at a glance what its words say: 4 and 5 satisfied, 1 and 2 not.
export const score = style({
	paddingInline: '0.5rem',
	borderRadius: '999px',
	border: `1px solid ${vars.color.border}`,
	fontWeight: 600,
	whiteSpace: 'nowrap',
	selectors: {
		'&[data-score="satisfied"]': { color: vars.color.success, borderColor: vars.color.success },
		'&[data-score="unsatisfied"]': { color: vars.color.destructive, borderColor: vars.color.destructive },
	},
})
export const comment = style({
	margin: 0,
	paddingInlineStart: '0.625rem',
	borderInlineStart: `2px solid ${vars.color.border}`,
	whiteSpace: 'pre-wrap',
	overflowWrap: 'anywhere',
})
