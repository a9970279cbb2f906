import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

// The public chat page: one column, the composer always at hand, logical properties so Arabic mirrors itself.
export const page = style({
	minBlockSize: '100dvh',
	display: 'grid',
	gridTemplateRows: 'auto 1fr',
	maxInlineSize: '44rem',
	marginInline: 'auto',
	background: vars.color.background,
})

export const header = style({
	display: 'flex',
	alignItems: 'center',
	gap: '0.75rem',
	flexWrap: 'wrap',
	paddingBlock: '0.75rem',
	paddingInline: '1rem',
	borderBlockEnd: `1px solid ${vars.color.border}`,
})

export const avatar = style({
	display: 'grid',
	placeItems: 'center',
	inlineSize: '2.5rem',
	blockSize: '2.5rem',
	borderRadius: '50%',
	color: '#fff',
	fontWeight: 700,
	flexShrink: 0,
})

export const heading = style({ flex: 1, minInlineSize: 0 })
export const business = style({ margin: 0, fontSize: '1.125rem', fontWeight: 700 })
export const channelName = style({ margin: 0, fontSize: '0.8125rem', color: vars.color.mutedForeground })

export const languages = style({ display: 'flex', gap: '0.25rem' })
export const language = style({
	paddingInline: '0.5rem',
	paddingBlock: '0.25rem',
	borderRadius: vars.radius,
	fontSize: '0.8125rem',
	textDecoration: 'none',
	color: vars.color.foreground,
	selectors: { '&[aria-current="page"]': { background: vars.color.secondary, fontWeight: 600 }, '&:hover': { background: vars.color.accent } },
})

export const main = style({ display: 'flex', flexDirection: 'column', gap: '1rem', padding: '1rem', minBlockSize: 0 })
export const intro = style({ display: 'grid', gap: '0.5rem' })
export const greeting = style({ margin: 0, fontSize: '1rem', whiteSpace: 'pre-wrap' })
export const away = style({ margin: 0, fontSize: '0.875rem', color: vars.color.mutedForeground, whiteSpace: 'pre-wrap' })

export const threadSection = style({ flex: 1, display: 'flex', flexDirection: 'column', gap: '0.5rem' })
export const older = style({ alignSelf: 'center', fontSize: '0.875rem' })
export const empty = style({ margin: 0, color: vars.color.mutedForeground, fontSize: '0.875rem', textAlign: 'center' })
export const thread = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '0.5rem' })

const bubble = style({
	display: 'grid',
	gap: '0.125rem',
	maxInlineSize: '85%',
	paddingBlock: '0.5rem',
	paddingInline: '0.75rem',
	borderRadius: '1rem',
	overflowWrap: 'anywhere',
})
export const mine = style([
	bubble,
	{ alignSelf: 'flex-end', background: vars.color.primary, color: vars.color.primaryForeground, borderEndEndRadius: '0.25rem' },
])
export const theirs = style([
	bubble,
	{ alignSelf: 'flex-start', background: vars.color.secondary, color: vars.color.secondaryForeground, borderEndStartRadius: '0.25rem' },
])
export const author = style({ fontSize: '0.75rem', fontWeight: 600, opacity: 0.85 })
export const body = style({ margin: 0, whiteSpace: 'pre-wrap' })
globalStyle(`${body} a`, { color: 'inherit', textDecoration: 'underline' })
export const time = style({ fontSize: '0.6875rem', opacity: 0.8, justifySelf: 'end' })
export const typing = style({ margin: 0, minBlockSize: '1.25rem', fontSize: '0.8125rem', fontStyle: 'italic', color: vars.color.mutedForeground })

export const composer = style({
	position: 'sticky',
	insetBlockEnd: 0,
	display: 'grid',
	gap: '0.5rem',
	paddingBlock: '0.75rem',
	background: vars.color.background,
	borderBlockStart: `1px solid ${vars.color.border}`,
})
export const preChat = style({ display: 'grid', gap: '0.75rem', margin: 0, padding: 0, border: 'none' })
export const preChatTitle = style({ padding: 0, fontWeight: 600, marginBlockEnd: '0.25rem' })
export const field = style({ display: 'grid', gap: '0.25rem' })
export const label = style({ fontSize: '0.875rem', fontWeight: 500 })

const control = style({
	inlineSize: '100%',
	paddingInline: '0.75rem',
	paddingBlock: '0.5rem',
	borderRadius: vars.radius,
	border: `1px solid ${vars.color.input}`,
	background: vars.color.background,
	color: vars.color.foreground,
	fontSize: '1rem',
	fontFamily: 'inherit',
	selectors: {
		'&[aria-invalid="true"]': { borderColor: vars.color.destructive },
		'&:focus-visible': { outline: `2px solid ${vars.color.ring}`, outlineOffset: 1 },
	},
})
export const input = style([control, { minBlockSize: '2.5rem' }])
export const textarea = style([control, { resize: 'vertical', minBlockSize: '2.75rem' }])
export const sendRow = style({ display: 'flex', gap: '0.5rem', alignItems: 'flex-end' })
export const send = style({
	minBlockSize: '2.75rem',
	paddingInline: '1.25rem',
	borderRadius: vars.radius,
	border: 'none',
	background: vars.color.primary,
	color: vars.color.primaryForeground,
	fontWeight: 600,
	cursor: 'pointer',
	selectors: { '&:disabled': { opacity: 0.6, cursor: 'progress' } },
})
export const error = style({ margin: 0, fontSize: '0.8125rem', color: vars.color.destructive })
export const hint = style({ margin: 0, fontSize: '0.75rem', color: vars.color.mutedForeground })

export const survey = style({
	display: 'grid',
	gap: '0.5rem',
	padding: '0.75rem',
	border: `1px solid ${vars.color.border}`,
	borderRadius: '0.5rem',
})
export const ratings = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', margin: 0, padding: 0, border: 'none' })
export const rating = style({ display: 'inline-flex', alignItems: 'center', gap: '0.25rem', fontSize: '0.875rem' })
export const surveyThanks = style({ margin: 0, padding: '0.75rem', borderRadius: '0.5rem', background: vars.color.muted, fontSize: '0.875rem' })
