import { globalStyle } from '@vanilla-extract/css'
import { vars } from './theme.css.ts'

globalStyle('*, *::before, *::after', { boxSizing: 'border-box', borderColor: vars.color.border })
globalStyle('html', { WebkitTextSizeAdjust: '100%', fontSize: '100%' })
globalStyle('body', {
	margin: 0,
	minBlockSize: '100vh',
	background: vars.color.background,
	color: vars.color.foreground,
	fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", Tahoma, sans-serif',
	lineHeight: 1.5,
	WebkitFontSmoothing: 'antialiased',
})
globalStyle('a', { color: 'inherit' })
globalStyle('h1, h2, h3, p', { marginBlock: 0 })
globalStyle('button, input, select, textarea', { font: 'inherit', color: 'inherit' })
globalStyle(':focus-visible', { outline: `2px solid ${vars.color.ring}`, outlineOffset: 2 })
globalStyle('.visually-hidden', {
	position: 'absolute',
	inlineSize: 1,
	blockSize: 1,
	overflow: 'hidden',
	clip: 'rect(0 0 0 0)',
	whiteSpace: 'nowrap',
})
