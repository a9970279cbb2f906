import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

const wide = 'screen and (min-width: 60rem)'
const narrow = 'screen and (max-width: 59.99rem)'

export const shell = style({
	minBlockSize: '100vh',
	display: 'grid',
	gridTemplateColumns: '1fr',
	gridTemplateRows: 'auto 1fr',
	'@media': { [wide]: { gridTemplateColumns: '15rem 1fr' } },
})

// On small screens the sidebar is a drawer opened by a link to #sidebar (no JavaScript needed).
export const sidebar = style({
	display: 'none',
	position: 'fixed',
	insetBlock: 0,
	insetInlineStart: 0,
	zIndex: 40,
	inlineSize: 'min(18rem, 85vw)',
	flexDirection: 'column',
	gap: '1rem',
	padding: '1rem',
	background: vars.color.card,
	borderInlineEnd: `1px solid ${vars.color.border}`,
	overflowY: 'auto',
	selectors: { '&:target': { display: 'flex', boxShadow: '0 0 0 100vmax rgb(0 0 0 / 0.4)' } },
	'@media': {
		[wide]: { display: 'flex', position: 'sticky', insetBlockStart: 0, blockSize: '100vh', gridRow: '1 / span 2', inlineSize: 'auto' },
	},
})
export const brand = style({ fontWeight: 800, fontSize: '1.125rem', textDecoration: 'none', paddingInline: '0.5rem' })
export const nav = style({ display: 'grid', gap: '0.125rem' })
export const navHeading = style({
	marginBlockStart: '0.75rem',
	paddingInline: '0.75rem',
	fontSize: '0.75rem',
	fontWeight: 600,
	textTransform: 'uppercase',
	letterSpacing: '0.04em',
	color: vars.color.mutedForeground,
})
export const navLink = style({
	display: 'block',
	paddingInline: '0.75rem',
	paddingBlock: '0.5rem',
	borderRadius: vars.radius,
	textDecoration: 'none',
	fontSize: '0.875rem',
	selectors: {
		'&:hover': { background: vars.color.accent },
		'&[aria-current="page"]': { background: vars.color.secondary, fontWeight: 600 },
	},
})
export const subNav = style({ display: 'grid', gap: '0.125rem', paddingInlineStart: '0.75rem' })
export const subNavLink = style([navLink, { display: 'flex', justifyContent: 'space-between', paddingBlock: '0.25rem', fontSize: '0.8125rem' }])
export const navCount = style({ fontVariantNumeric: 'tabular-nums', color: vars.color.mutedForeground })
export const closeDrawer = style({ alignSelf: 'flex-end', '@media': { [wide]: { display: 'none' } } })
export const topbar = style({
	display: 'flex',
	alignItems: 'center',
	gap: '0.5rem',
	minInlineSize: 0,
	paddingInline: '0.75rem',
	paddingBlock: '0.625rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
	background: vars.color.background,
	'@media': { [wide]: { gap: '0.75rem', paddingInline: '1rem' } },
})
export const menuButton = style({ flex: 'none', '@media': { [wide]: { display: 'none' } } })
export const spacer = style({ flex: 1 })
// One row on a phone: language and appearance sit in the account menu there, in the bar on wider screens.
export const wideTools = style({ display: 'none', alignItems: 'center', gap: '0.75rem', '@media': { [wide]: { display: 'flex' } } })
// On a phone the live indicator is its dot; its word stays for screen readers and in its title.
export const live = style({ display: 'contents' })
globalStyle(`${live} > [role="status"]`, { '@media': { [narrow]: { fontSize: 0, gap: 0 } } })
export const narrowTools = style({
	display: 'grid',
	gap: '0.5rem',
	justifyItems: 'start',
	paddingInline: '0.5rem',
	paddingBlockEnd: '0.5rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
	'@media': { [wide]: { display: 'none' } },
})
// One column no wider than the screen: a wide child (a long select) shrinks or scrolls in itself instead of widening the page.
export const main = style({ minInlineSize: 0, padding: '1.5rem', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '1.5rem', alignContent: 'start' })
export const banner = style({
	display: 'flex',
	alignItems: 'center',
	justifyContent: 'space-between',
	flexWrap: 'wrap',
	gap: '0.75rem',
	padding: '0.75rem 1rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.warning}`,
	fontSize: '0.875rem',
})
export const userMenu = style({ position: 'relative', flex: '0 1 auto', minInlineSize: '3.5rem' })
// A long name is cut on a phone rather than pushing the bar wider than the screen.
export const userName = style({
	minInlineSize: 0,
	maxInlineSize: '8rem',
	overflow: 'hidden',
	textOverflow: 'ellipsis',
	whiteSpace: 'nowrap',
	'@media': { [wide]: { maxInlineSize: '16rem' } },
})
export const userPanel = style({
	position: 'absolute',
	insetInlineEnd: 0,
	insetBlockStart: 'calc(100% + 0.25rem)',
	zIndex: 50,
	display: 'grid',
	gap: '0.25rem',
	minInlineSize: '15rem',
	padding: '0.5rem',
	background: vars.color.card,
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	boxShadow: '0 8px 24px rgb(0 0 0 / 0.12)',
})
export const userSummary = style({
	paddingInline: '0.75rem',
	paddingBlock: '0.5rem',
	fontSize: '0.8125rem',
	color: vars.color.mutedForeground,
	overflowWrap: 'anywhere',
})
export const menuItem = style({
	display: 'block',
	inlineSize: '100%',
	textAlign: 'start',
	paddingInline: '0.75rem',
	paddingBlock: '0.5rem',
	borderRadius: vars.radius,
	border: 0,
	background: 'transparent',
	textDecoration: 'none',
	fontSize: '0.875rem',
	cursor: 'pointer',
	selectors: { '&:hover': { background: vars.color.accent } },
})
export const pageHeader = style({ display: 'grid', gap: '0.25rem' })
// A title may be user-written (a name, an address) with no place to break: it breaks anywhere rather than widen the page.
export const pageTitle = style({ fontSize: '1.5rem', fontWeight: 700, letterSpacing: '-0.01em', overflowWrap: 'anywhere' })
export const pageLead = style({ color: vars.color.mutedForeground })
export const section = style({
	display: 'grid',
	gap: '1rem',
	padding: '1.25rem',
	borderRadius: `calc(${vars.radius} * 1.5)`,
	border: `1px solid ${vars.color.border}`,
	background: vars.color.card,
	maxInlineSize: '44rem',
})
export const sectionTitle = style({ fontSize: '1.0625rem', fontWeight: 600 })
globalStyle(`${userMenu} > summary`, { listStyle: 'none', maxInlineSize: '100%', overflow: 'hidden' })
globalStyle(`${userMenu} > summary::-webkit-details-marker`, { display: 'none' })
// Inside the account menu the appearance panel opens in place, not as a second floating panel.
globalStyle(`${narrowTools} details > form`, { position: 'static', boxShadow: 'none', marginBlockStart: '0.5rem' })

// Inside the shell, when the page could not have the user's profile.
export const outage = style({
	display: 'grid',
	justifyItems: 'start',
	gap: '0.75rem',
	maxInlineSize: '40rem',
	padding: '1.5rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.warning}`,
})

/** The profile's list of signed-in devices: one row each, its action at the inline end. */
export const sessionList = style({ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: '0.75rem' })
export const sessionItem = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '1rem', flexWrap: 'wrap' })

// Two-step sign-in: a checkbox with its label, the QR code (always dark on white, as scanners want), the secret and the recovery codes.
export const check = style({ display: 'flex', gap: '0.5rem', alignItems: 'flex-start', fontSize: '0.875rem' })
export const qrCode = style({ inlineSize: '12rem', blockSize: '12rem', background: 'white', borderRadius: vars.radius, padding: '0.25rem' })
export const secret = style({
	fontFamily: 'ui-monospace, monospace',
	fontSize: '0.9375rem',
	letterSpacing: '0.05em',
	wordBreak: 'break-all',
	unicodeBidi: 'isolate',
	direction: 'ltr',
})
export const recoveryCodes = style({
	fontFamily: 'ui-monospace, monospace',
	fontSize: '0.9375rem',
	inlineSize: '100%',
	maxInlineSize: '20rem',
	minBlockSize: '11rem',
	padding: '0.5rem',
	direction: 'ltr',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	background: vars.color.background,
	color: vars.color.foreground,
})
export const actionsRow = style({ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'center' })
