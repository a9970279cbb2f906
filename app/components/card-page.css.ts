import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const page = style({ minBlockSize: '100vh', display: 'flex', flexDirection: 'column', background: vars.color.muted })
export const header = style({
	display: 'flex',
	alignItems: 'center',
	justifyContent: 'space-between',
	gap: '1rem',
	flexWrap: 'wrap',
	paddingInline: '1.5rem',
	paddingBlock: '1rem',
})
export const brand = style({ fontWeight: 800, fontSize: '1.125rem', textDecoration: 'none' })
export const main = style({ flex: 1, display: 'grid', placeItems: 'center', paddingInline: '1rem', paddingBlock: '2rem' })
export const card = style({
	inlineSize: '100%',
	maxInlineSize: '26rem',
	display: 'grid',
	gap: '1.25rem',
	padding: '2rem',
	borderRadius: `calc(${vars.radius} * 2)`,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
	color: vars.color.cardForeground,
	boxShadow: '0 1px 3px rgb(0 0 0 / 0.08)',
})
export const title = style({ fontSize: '1.5rem', fontWeight: 700, letterSpacing: '-0.01em' })
export const lead = style({ color: vars.color.mutedForeground, fontSize: '0.9375rem', marginBlockStart: '0.375rem' })
export const links = style({ display: 'grid', gap: '0.5rem', fontSize: '0.875rem', textAlign: 'center', color: vars.color.mutedForeground })
export const link = style({ fontSize: '0.875rem', color: vars.color.primary, fontWeight: 500 })
export const notice = style({
	padding: '0.75rem 1rem',
	borderRadius: vars.radius,
	background: vars.color.muted,
	fontSize: '0.875rem',
})
