import { style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

// On a phone the bar keeps its room for the name: a new workspace is made from the Workspaces page there.
export const newWorkspace = style({ '@media': { 'screen and (max-width: 29.99rem)': { display: 'none' } } })
export const switcher = style({ display: 'flex', alignItems: 'center', gap: '0.375rem', minInlineSize: 0, flex: '0 1 auto' })
const phone = 'screen and (max-width: 29.99rem)'
export const select = style({
	minBlockSize: '2.25rem',
	// Shrinks on a phone (the name is cut) so that the top bar keeps one row.
	minInlineSize: '6rem',
	flex: '0 1 auto',
	maxInlineSize: '16rem',
	paddingInline: '0.625rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.input}`,
	background: vars.color.background,
	fontWeight: 600,
	// Without JavaScript its Switch button takes room beside it on a phone (the bell is there too): the name is cut shorter.
	'@media': { [phone]: { selectors: { [`${switcher}:has(button[type="submit"]) &`]: { minInlineSize: '4.5rem' } } } },
})
