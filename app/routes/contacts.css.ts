import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const layout = style({ display: 'grid', gap: '1.5rem', gridTemplateColumns: 'minmax(0, 1fr)', '@media': { 'screen and (min-width: 80rem)': { gridTemplateColumns: 'minmax(0, 1fr) 22rem' } } })
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
export const bulk = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center', padding: '0.75rem', borderBlockEnd: `1px solid ${vars.color.border}` })
export const panel = style({ display: 'grid', gap: '0.75rem', alignContent: 'start', padding: '1.25rem', borderRadius: vars.radius, border: `1px solid ${vars.color.border}`, background: vars.color.card })
export const facts = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.375rem 0.75rem', margin: 0, fontSize: '0.875rem', overflowWrap: 'anywhere' })
export const term = style({ color: vars.color.mutedForeground })
export const subheading = style({ margin: '0 0 0.25rem', fontSize: '0.875rem', fontWeight: 600 })
export const identities = style({ margin: 0, paddingInlineStart: '1.25rem', fontSize: '0.875rem', display: 'grid', gap: '0.25rem', overflowWrap: 'anywhere' })
export const report = style({ display: 'grid', gap: '0.5rem', fontSize: '0.875rem' })
export const optedOut = style({ display: 'grid', gap: '0.5rem', justifyItems: 'start', padding: '0.75rem', borderInlineStart: `3px solid ${vars.color.warning}`, background: vars.color.muted, fontSize: '0.875rem' })
