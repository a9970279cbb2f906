import { type Response } from 'express'
import { type Attachment } from '#api/db/schema.ts'
import { type Storage } from './storage.ts'

/** Images a browser may show in the page: raster formats only (SVG can carry script). */
const inlineImages = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'])
/** Audio and video players read these in place. */
const inlineMedia = /^(audio|video)\/[\w.+-]+$/

/**
 * How a stored content type is served: inline only for raster images, audio and video; anything
 * else as a download, and a type a browser would run (HTML, SVG, XML, script) never as itself.
 */
export function servedType(contentType: string): { type: string; inline: boolean } {
	const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
	if (inlineImages.has(type) || inlineMedia.test(type)) return { type, inline: true }
	const wellFormed = /^[\w.+-]+\/[\w.+-]+$/.test(type)
	const active = /html|svg|xml|javascript|ecmascript|^text\/(css|x-component)|^multipart\//.test(type)
	return { type: wellFormed && !active ? type : 'application/octet-stream', inline: false }
}

/** `Content-Disposition` with the sender's name: an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
	const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'file'
	const exact = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
	return `${disposition}; filename="${fallback}"; filename*=UTF-8''${exact}`
}

/**
 * Streams a stored file with the headers that keep it a file: its type (never one a browser would
 * run), inline only for images, audio and video, no sniffing, and a sandbox should it be opened as a
 * page. False when there are no bytes to send (too large, failed, gone): the caller answers 404.
 */
export async function sendAttachment(
	res: Response,
	storage: Storage,
	attachment: Pick<Attachment, 'status' | 'storageKey' | 'contentType' | 'filename'>,
): Promise<boolean> {
	const file = attachment.status === 'stored' && attachment.storageKey ? await storage.open(attachment.storageKey) : null
	if (!file) return false
	const { type, inline } = servedType(attachment.contentType)
	res.status(200)
	res.setHeader('Content-Type', type)
	res.setHeader('Content-Length', String(file.size))
	res.setHeader('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', attachment.filename))
	res.setHeader('X-Content-Type-Options', 'nosniff')
	res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
	res.setHeader('Cache-Control', 'private, max-age=3600')
	file.stream.on('error', () => res.destroy())
	file.stream.pipe(res)
	return true
}
