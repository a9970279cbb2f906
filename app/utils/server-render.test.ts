import { PassThrough } from 'node:stream'
import { createElement } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import { describe, expect, test } from 'vitest'

/** A page rendered as entry.server.tsx renders it: the whole of React's stream, as bytes. */
function render(children: string[]): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = []
		const body = new PassThrough()
		body.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)))
		body.once('end', () => resolve(Buffer.concat(chunks)))
		const { pipe } = renderToPipeableStream(
			createElement(
				'main',
				null,
				children.map((text, index) => createElement('p', { key: index }, text)),
			),
			{ onAllReady: () => pipe(body), onShellError: reject },
		)
	})
}

describe('server rendering', () => {
	// React 18.3's stream wrote its whole 2 KB buffer when a multi-byte character did not fit at its
	// end, zeros included: a NUL in the page, shown as � inside an Arabic word (patches/react-dom+18.3.1.patch).
	test('Arabic text across the stream’s buffer boundaries has no stray bytes', async () => {
		for (let padding = 0; padding < 40; padding++) {
			const children = Array.from({ length: 60 }, (_, index) => `${'x'.repeat(padding + index)} دعم تيليجرام ${index}`)
			const html = await render(children)
			expect(html.includes(0), `padding ${padding}`).toBe(false)
			expect(html.toString('utf8')).not.toContain('\uFFFD')
			expect(html.toString('utf8').split('دعم تيليجرام').length - 1).toBe(60)
		}
	})
})
