import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

/** The toast as a plain status region, for browsers without JavaScript. */
export const flash = style({
	position: 'fixed',
	insetBlockEnd: '1.5rem',
	insetInlineEnd: '1.5rem',
	zIndex: 99999,
	inlineSize: 'min(356px, calc(100vw - 3rem))',
	padding: '1rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
	color: vars.color.cardForeground,
	boxShadow: '0 4px 12px rgb(0 0 0 / 0.1)',
	fontSize: '0.875rem',
	selectors: {
		'&[data-type="error"]': { insetBlockStart: '1.5rem', insetBlockEnd: 'auto', borderColor: vars.color.destructive },
		'&[data-type="success"]': { borderColor: vars.color.success },
	},
})
