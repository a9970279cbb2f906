import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

export const page = style({ minBlockSize: '100vh', display: 'flex', flexDirection: 'column' })
export const header = style({
	display: 'flex',
	alignItems: 'center',
	justifyContent: 'space-between',
	gap: '1rem',
	flexWrap: 'wrap',
	paddingInline: '1.5rem',
	paddingBlock: '1rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
})
export const brand = style({ fontWeight: 800, fontSize: '1.125rem' })
export const hero = style({ flex: 1, maxInlineSize: '60rem', marginInline: 'auto', paddingInline: '1.5rem', paddingBlock: '4rem', textAlign: 'center' })
export const title = style({ fontSize: 'clamp(2rem, 5vw, 3rem)', fontWeight: 800, letterSpacing: '-0.02em', lineHeight: 1.15 })
export const lead = style({ marginBlockStart: '1rem', fontSize: '1.125rem', color: vars.color.mutedForeground })
export const actions = style({ display: 'flex', gap: '0.75rem', justifyContent: 'center', marginBlockStart: '2rem', flexWrap: 'wrap' })
export const channels = style({
	display: 'flex',
	flexWrap: 'wrap',
	justifyContent: 'center',
	gap: '0.5rem',
	listStyle: 'none',
	padding: 0,
	marginBlock: '2.5rem 0',
	fontSize: '0.8125rem',
	color: vars.color.mutedForeground,
})
export const features = style({
	display: 'grid',
	gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))',
	gap: '1rem',
	listStyle: 'none',
	padding: 0,
	marginBlockStart: '3rem',
	textAlign: 'start',
})
export const feature = style({
	padding: '1.25rem',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	background: vars.color.card,
})
