import { style, styleVariants } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

const base = style({
	display: 'inline-flex',
	alignItems: 'center',
	justifyContent: 'center',
	gap: '0.5rem',
	minBlockSize: '2.5rem',
	paddingInline: '1rem',
	borderRadius: vars.radius,
	border: '1px solid transparent',
	fontSize: '0.875rem',
	fontWeight: 500,
	textDecoration: 'none',
	cursor: 'pointer',
	whiteSpace: 'nowrap',
	transition: 'background-color 120ms, opacity 120ms',
	selectors: { '&:disabled, &[aria-disabled="true"]': { opacity: 0.6, cursor: 'not-allowed' } },
})

export const button = styleVariants({
	primary: [base, { background: vars.color.primary, color: vars.color.primaryForeground, selectors: { '&:hover': { opacity: 0.9 } } }],
	secondary: [base, { background: vars.color.secondary, color: vars.color.secondaryForeground }],
	outline: [base, { background: vars.color.background, borderColor: vars.color.input, selectors: { '&:hover': { background: vars.color.accent } } }],
	ghost: [base, { background: 'transparent', selectors: { '&:hover': { background: vars.color.accent } } }],
	destructive: [base, { background: vars.color.destructive, color: vars.color.destructiveForeground }],
})
