import { globalStyle, style, styleVariants } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

const tablet = 'screen and (min-width: 48rem)'
const wide = 'screen and (min-width: 80rem)'

// One pane at a time on a phone (the one the URL is about), list and thread on a tablet, all three on a wide screen.
export const inbox = style({
	display: 'grid',
	gridTemplateColumns: 'minmax(0, 1fr)',
	gap: '1rem',
	'@media': {
		// Beside each other the panes share the window's height and scroll inside.
		[tablet]: { gridTemplateColumns: 'minmax(18rem, 24rem) minmax(0, 1fr)', blockSize: 'max(32rem, calc(100dvh - 6rem))' },
		[wide]: { gridTemplateColumns: 'minmax(18rem, 24rem) minmax(0, 1fr) 18rem' },
	},
})

const shown = { display: 'flex' } as const
export const pane = style({
	display: 'none',
	flexDirection: 'column',
	minInlineSize: 0,
	minBlockSize: 0,
	overflow: 'hidden',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	background: vars.color.card,
	selectors: {
		[`${inbox}[data-view="list"] &[data-pane="list"], ${inbox}[data-view="thread"] &[data-pane="thread"], ${inbox}[data-view="contact"] &[data-pane="contact"]`]:
			shown,
	},
	'@media': {
		[tablet]: { selectors: { [`${inbox} &[data-pane="list"], ${inbox}:not([data-view="contact"]) &[data-pane="thread"]`]: shown } },
		[wide]: { selectors: { [`${inbox} &[data-pane]`]: shown } },
	},
})

export const paneHeader = style({
	position: 'relative',
	display: 'grid',
	gap: '0.375rem',
	padding: '0.5rem 0.75rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
})
export const title = style({ fontSize: '1.25rem', fontWeight: 700 })
export const tabs = style({ display: 'flex', flexWrap: 'wrap', gap: '0.125rem' })
export const tab = style({
	display: 'inline-flex',
	alignItems: 'center',
	gap: '0.3rem',
	paddingInline: '0.5rem',
	paddingBlock: '0.25rem',
	borderRadius: vars.radius,
	textDecoration: 'none',
	fontSize: '0.8125rem',
	selectors: { '&:hover': { background: vars.color.accent }, '&[aria-current="page"]': { background: vars.color.secondary, fontWeight: 600 } },
})
export const count = style({ fontSize: '0.75rem', color: vars.color.mutedForeground })
export const searchRow = style({ display: 'flex', gap: '0.375rem', alignItems: 'center' })
export const searchInput = style({ flex: 1, minInlineSize: 0 })
export const badge = style({
	minInlineSize: '1.125rem',
	paddingInline: '0.3rem',
	borderRadius: '999px',
	background: vars.color.primary,
	color: vars.color.primaryForeground,
	fontSize: '0.6875rem',
	fontWeight: 700,
	textAlign: 'center',
})
// Each select as wide as its longest choice, so that the chosen one shows whole; they wrap.
export const filters = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', fontSize: '0.8125rem' })
export const filter = style({ display: 'grid', gap: '0.125rem', maxInlineSize: '100%' })
globalStyle(`${filter} select`, { maxInlineSize: '100%' })
export const compactInput = style({ minBlockSize: '2rem', paddingBlock: '0.25rem', paddingInline: '0.5rem', fontSize: '0.8125rem', inlineSize: 'auto' })
export const filterMenu = style({ fontSize: '0.8125rem' })
globalStyle(`${filterMenu} > summary`, { cursor: 'pointer', color: vars.color.mutedForeground, paddingBlock: '0.25rem' })
export const selectAll = style({ display: 'inline-flex', alignItems: 'center', gap: '0.375rem', minBlockSize: '2rem' })
export const bulk = style({ display: 'flex', flexWrap: 'wrap', gap: '0.375rem', alignItems: 'center', fontSize: '0.8125rem', paddingBlock: '0.25rem' })
export const bulkForm = style({ display: 'contents' })
export const bulkActions = style({ display: 'none', flex: 1, gap: '0.375rem', alignItems: 'center', minInlineSize: '12rem' })
globalStyle(`${bulkForm}:has(input[type="checkbox"]:checked) ${bulkActions}`, { display: 'flex' })
export const listScroll = style({ flex: 1, overflowY: 'auto' })

export const list = style({ listStyle: 'none', margin: 0, padding: 0 })
// Compact rows: at least ten show beside the filters on a 1440 × 900 screen.
export const row = style({
	display: 'grid',
	gridTemplateColumns: 'auto auto minmax(0, 1fr)',
	gap: '0.5rem',
	alignItems: 'start',
	paddingInline: '0.75rem',
	paddingBlock: '0.3125rem',
	lineHeight: 1.25,
	borderBlockEnd: `1px solid ${vars.color.border}`,
	selectors: { '&[aria-current="true"]': { background: vars.color.secondary }, '&:hover': { background: vars.color.accent } },
})
export const rowLink = style({ display: 'grid', gap: '0.0625rem', textDecoration: 'none', minInlineSize: 0 })
export const rowTop = style({ display: 'flex', alignItems: 'baseline', gap: '0.375rem' })
// In its own direction (dir="auto"), as wide as its text at most, so that it sits at the page's start edge.
export const name = style({ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', flex: '0 1 auto', minInlineSize: 0 })
// Pushed to the end: the name before it may be in the other direction, where its own margins would be mirrored.
export const time = style({ fontSize: '0.75rem', color: vars.color.mutedForeground, whiteSpace: 'nowrap', marginInlineStart: 'auto' })
export const excerptLine = style({ display: 'flex', gap: '0.25rem', minInlineSize: 0, fontSize: '0.8125rem', color: vars.color.mutedForeground })
export const lastFrom = style({ flex: 'none', maxInlineSize: '50%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 500 })
export const excerpt = style({ flex: '0 1 auto', minInlineSize: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })
export const meta = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.375rem', fontSize: '0.75rem', color: vars.color.mutedForeground })
export const unread = style({
	minInlineSize: '1.25rem',
	paddingInline: '0.375rem',
	borderRadius: '999px',
	background: vars.color.primary,
	color: vars.color.primaryForeground,
	fontSize: '0.75rem',
	fontWeight: 700,
	textAlign: 'center',
})
export const avatar = style({
	display: 'inline-grid',
	placeItems: 'center',
	inlineSize: '2.25rem',
	blockSize: '2.25rem',
	borderRadius: '999px',
	color: '#fff',
	fontWeight: 600,
	fontSize: '0.875rem',
	flex: 'none',
})
export const icon = style({ inlineSize: '1rem', blockSize: '1rem', flex: 'none', color: vars.color.mutedForeground })
export const pager = style({ display: 'flex', justifyContent: 'space-between', gap: '0.5rem', padding: '0.5rem 0.75rem' })
export const empty = style({ padding: '2rem 1rem', textAlign: 'center', color: vars.color.mutedForeground })

export const threadHeader = style({
	position: 'relative',
	display: 'flex',
	flexWrap: 'wrap',
	gap: '0.5rem',
	alignItems: 'center',
	padding: '0.75rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
})
// The header's many small forms: compact buttons, so the thread keeps the room.
globalStyle(`${threadHeader} button, ${threadHeader} summary, ${threadHeader} select, ${threadHeader} a`, {
	minBlockSize: '2rem',
	paddingInline: '0.625rem',
	fontSize: '0.8125rem',
})
export const threadTitle = style({ display: 'grid', gap: '0.125rem', flex: 1, minInlineSize: '10rem' })
export const presence = style({ fontSize: '0.75rem', color: vars.color.mutedForeground, minBlockSize: '1.125rem' })
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.375rem', alignItems: 'center' })
export const inlineForm = style({ display: 'inline-flex', gap: '0.25rem', alignItems: 'center' })
// A menu's panel is placed in the header it sits in (positioned), not under its own button: without
// JavaScript it opens at the header's inline end, below it, never wider, so never outside the pane or the
// screen; popover.tsx then moves it under its button (--popover-start, --popover-top).
export const menu = style({ position: 'static' })
export const menuPanel = style({
	position: 'absolute',
	insetInlineStart: 'var(--popover-start, auto)',
	insetInlineEnd: 'var(--popover-end, 0.75rem)',
	insetBlockStart: 'var(--popover-top, 100%)',
	zIndex: 30,
	display: 'grid',
	gap: '0.375rem',
	minInlineSize: 'min(14rem, calc(100% - 1.5rem))',
	maxInlineSize: 'calc(100% - 1.5rem)',
	maxBlockSize: 'min(24rem, 70vh)',
	overflowY: 'auto',
	padding: '0.5rem',
	background: vars.color.card,
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	boxShadow: '0 8px 24px rgb(0 0 0 / 0.12)',
})
export const menuList = style({ display: 'grid', gap: '0.125rem' })
export const menuItem = style({ inlineSize: '100%', justifyContent: 'flex-start' })
export const menuCheck = style({ display: 'inline-block', inlineSize: '1em' })
globalStyle(`${menu} > summary`, { listStyle: 'none' })
globalStyle(`${menu} > summary::-webkit-details-marker`, { display: 'none' })

export const messages = style({ flex: 1, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: '0.5rem', padding: '0.75rem' })
export const day = style({ alignSelf: 'center', fontSize: '0.75rem', fontWeight: 600, color: vars.color.mutedForeground, paddingBlock: '0.25rem' })
const bubble = style({
	display: 'grid',
	gap: '0.25rem',
	maxInlineSize: 'min(36rem, 85%)',
	paddingInline: '0.75rem',
	paddingBlock: '0.5rem',
	borderRadius: vars.radius,
	whiteSpace: 'pre-wrap',
	overflowWrap: 'anywhere',
})
export const message = styleVariants({
	incoming: [bubble, { alignSelf: 'flex-start', background: vars.color.muted, borderEndStartRadius: 0 }],
	outgoing: [bubble, { alignSelf: 'flex-end', background: vars.color.primary, color: vars.color.primaryForeground, borderEndEndRadius: 0 }],
	// Private notes stand out in amber, whatever the theme: they never reach the customer.
	note: [bubble, { alignSelf: 'flex-end', background: 'hsl(48 96% 89%)', color: 'hsl(26 83% 14%)', border: '1px dashed hsl(38 92% 50%)' }],
})
// Underlined in the bubble's own colour: the reply bubble's primary background has no room for a link colour.
export const messageLink = style({ color: 'inherit', textDecoration: 'underline', textUnderlineOffset: '0.15em' })
export const noteMarker = style({ fontSize: '0.6875rem', fontWeight: 700, textTransform: 'uppercase', letterSpacing: '0.04em' })
export const messageMeta = style({ display: 'flex', gap: '0.375rem', justifyContent: 'flex-end', fontSize: '0.6875rem', opacity: 0.8 })
export const failed = style({ fontWeight: 700 })
export const retry = style({ marginBlockStart: '0.375rem' })
export const activity = style({ alignSelf: 'center', fontSize: '0.75rem', color: vars.color.mutedForeground, textAlign: 'center' })
export const typing = style({ fontSize: '0.75rem', color: vars.color.mutedForeground, paddingInline: '0.75rem', minBlockSize: '1.125rem' })

export const composer = style({ display: 'grid', gap: '0.5rem', padding: '0.75rem', borderBlockStart: `1px solid ${vars.color.border}`, position: 'relative' })
// The ticked kind (Reply or Private note) colours the composer and picks its words, without JavaScript.
globalStyle(`${composer}:has(input[value="note"]:checked)`, { background: 'hsl(48 96% 95%)', color: 'hsl(26 83% 14%)' })
globalStyle(`${composer}:has(input[value="note"]:checked) [data-kind="text"], ${composer}:not(:has(input[value="note"]:checked)) [data-kind="note"]`, {
	display: 'none',
})
export const kinds = style({ display: 'flex', gap: '0.25rem', border: 0, margin: 0, padding: 0 })
export const kind = style({ position: 'relative', display: 'inline-flex' })
globalStyle(`${kind} > input`, { position: 'absolute', opacity: 0, inlineSize: 1, blockSize: 1 })
globalStyle(`${kind} > span`, {
	paddingInline: '0.75rem',
	paddingBlock: '0.25rem',
	borderRadius: vars.radius,
	fontSize: '0.8125rem',
	cursor: 'pointer',
	border: `1px solid transparent`,
})
globalStyle(`${kind} > input:checked + span`, { background: vars.color.secondary, fontWeight: 600, borderColor: vars.color.border })
globalStyle(`${kind} > input:focus-visible + span`, { outline: `2px solid ${vars.color.ring}`, outlineOffset: 1 })
export const composerRow = style({
	display: 'flex',
	gap: '0.5rem',
	alignItems: 'flex-end',
	justifyContent: 'space-between',
	flexWrap: 'wrap',
	fontSize: '0.75rem',
	color: vars.color.mutedForeground,
})
export const suggestions = style({
	position: 'absolute',
	insetInline: '0.75rem',
	insetBlockEnd: 'calc(100% - 0.5rem)',
	zIndex: 20,
	maxBlockSize: '14rem',
	overflowY: 'auto',
	margin: 0,
	padding: '0.25rem',
	listStyle: 'none',
	background: vars.color.card,
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	boxShadow: '0 8px 24px rgb(0 0 0 / 0.12)',
})
export const suggestion = style({
	display: 'grid',
	paddingInline: '0.5rem',
	paddingBlock: '0.375rem',
	borderRadius: vars.radius,
	fontSize: '0.8125rem',
	cursor: 'pointer',
	selectors: { '&[aria-selected="true"]': { background: vars.color.accent } },
})
export const suggestionHint = style({ color: vars.color.mutedForeground, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })

export const details = style({ display: 'grid', gap: '0.75rem', padding: '1rem', alignContent: 'start', overflowY: 'auto' })
export const facts = style({
	display: 'grid',
	gridTemplateColumns: 'max-content 1fr',
	gap: '0.375rem 0.75rem',
	margin: 0,
	fontSize: '0.8125rem',
	overflowWrap: 'anywhere',
})
export const term = style({ color: vars.color.mutedForeground })
export const panelHeading = style({ fontSize: '0.875rem', fontWeight: 600, marginBlockEnd: '0.375rem' })
export const otherConversations = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '0.25rem' })
export const otherConversation = style({
	display: 'grid',
	gap: '0.125rem',
	padding: '0.375rem 0.5rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.border}`,
	textDecoration: 'none',
	fontSize: '0.8125rem',
	selectors: { '&:hover': { background: vars.color.accent } },
})
export const statusChip = style({ flex: 1, fontSize: '0.75rem', color: vars.color.mutedForeground })
export const back = style({ '@media': { [tablet]: { display: 'none' } } })
export const contactLink = style({ '@media': { [wide]: { display: 'none' } } })

export const dialog = style({
	padding: '1.25rem',
	border: `1px solid ${vars.color.border}`,
	borderRadius: vars.radius,
	background: vars.color.card,
	color: vars.color.foreground,
	minInlineSize: 'min(24rem, 90vw)',
	selectors: { '&::backdrop': { background: 'rgb(0 0 0 / 0.4)' } },
})
export const keys = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.5rem 1rem', margin: 0, marginBlock: '1rem' })
export const key = style({
	fontFamily: 'ui-monospace, monospace',
	paddingInline: '0.375rem',
	border: `1px solid ${vars.color.border}`,
	borderRadius: '0.25rem',
	justifySelf: 'start',
})

export const templates = style({ display: 'grid', gap: '0.75rem', paddingBlock: '0.5rem', paddingInline: '1rem', fontSize: '0.875rem' })

export const composerFile = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.5rem', fontSize: '0.8125rem' })
export const composerFileHint = style({ fontSize: '0.75rem', opacity: 0.8 })
