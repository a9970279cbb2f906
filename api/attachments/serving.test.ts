import { describe, expect, it } from 'vitest'
import { contentDisposition, servedType } from './serving.ts'

describe('servedType', () => {
	it('shows raster images, audio and video in place', () => {
		expect(servedType('image/jpeg')).toEqual({ type: 'image/jpeg', inline: true })
		expect(servedType('IMAGE/PNG; charset=binary')).toEqual({ type: 'image/png', inline: true })
		expect(servedType('audio/ogg')).toEqual({ type: 'audio/ogg', inline: true })
	})

	it('never serves a type a browser would run, and downloads the rest', () => {
		expect(servedType('image/svg+xml')).toEqual({ type: 'application/octet-stream', inline: false })
		expect(servedType('text/html')).toEqual({ type: 'application/octet-stream', inline: false })
		expect(servedType('application/xhtml+xml')).toEqual({ type: 'application/octet-stream', inline: false })
		expect(servedType('text/javascript')).toEqual({ type: 'application/octet-stream', inline: false })
		expect(servedType('application/pdf')).toEqual({ type: 'application/pdf', inline: false })
		expect(servedType('not a type\r\nSet-Cookie: x')).toEqual({ type: 'application/octet-stream', inline: false })
	})
})

describe('contentDisposition', () => {
	it('gives an ASCII fallback and the exact name, quotes and line breaks defused', () => {
		expect(contentDisposition('attachment', 'facture mars.pdf')).toBe(`attachment; filename="facture mars.pdf"; filename*=UTF-8''facture%20mars.pdf`)
		expect(contentDisposition('inline', 'صورة.jpg')).toBe(`inline; filename="____.jpg"; filename*=UTF-8''%D8%B5%D9%88%D8%B1%D8%A9.jpg`)
		expect(contentDisposition('attachment', 'a"b\r\n.txt')).toBe(`attachment; filename="a_b__.txt"; filename*=UTF-8''a%22b%0D%0A.txt`)
	})
})
