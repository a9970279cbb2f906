import { keyframes, style } from '@vanilla-extract/css'
import { vars } from '#app/styles/theme.css.ts'

const grow = keyframes({ from: { inlineSize: '0%' }, to: { inlineSize: '85%' } })

export const track = style({
	position: 'fixed',
	insetBlockStart: 0,
	insetInline: 0,
	blockSize: 3,
	zIndex: 100000,
	pointerEvents: 'none',
	opacity: 0,
	transition: 'opacity 200ms',
	selectors: { '&[data-busy="true"]': { opacity: 1, transitionDelay: '150ms' } },
})

export const bar = style({
	blockSize: '100%',
	inlineSize: 0,
	background: vars.color.primary,
	selectors: { [`${track}[data-busy="true"] &`]: { animation: `${grow} 8s cubic-bezier(0.1, 0.7, 0.2, 1) forwards` } },
})
