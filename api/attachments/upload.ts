import { type Request } from 'express'
import busboy from 'busboy'
import { type AttachmentKind } from '#api/db/schema.ts'
import { languageOf } from '#locales/languages.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { cleanFilename, type NewAttachment } from './inbound.ts'
import { type Storage } from './storage.ts'

/** A `multipart/form-data` request (a reply with a file), which the API reads itself rather than as JSON. */
export const isMultipart = (req: Request) => Boolean(req.is('multipart/form-data'))

/** What a file's type makes of it in the thread and on the channels. */
export function attachmentKindOf(contentType: string): AttachmentKind {
	if (/^image\/(jpeg|png|gif|webp)$/i.test(contentType)) return 'image'
	if (/^audio\//i.test(contentType)) return 'audio'
	if (/^video\//i.test(contentType)) return 'video'
	return 'file'
}

/** Megabytes as the refusal says them, in the caller's language ("0,1" in French, "٠٫١" in Arabic). */
const megabytes = (req: Request, bytes: number) => new Intl.NumberFormat(languageOf(req.locale).tag, { maximumFractionDigits: 1 }).format(bytes / (1024 * 1024))

/**
 * Reads a multipart form: its text fields, and at most one file (field `file`) streamed into the
 * storage. A file over `maxBytes` is cut off by busboy and refused (413, beside the field), one with
 * no bytes too (400); nothing of a refused file is kept. A file input left empty counts as none.
 */
export async function readUpload(req: Request, storage: Storage, maxBytes: number): Promise<{ fields: Record<string, string>; file: NewAttachment | null }> {
	const fields: Record<string, string> = {}
	let stored: Promise<NewAttachment & { truncated: boolean }> | null = null
	let parser: busboy.Busboy
	try {
		// busboy counts a file that reaches its limit as cut off, one of exactly `maxBytes` too: it (and the storage below) take one byte more, which tells the two apart.
		parser = busboy({
			headers: req.headers,
			limits: { files: 1, fields: 20, fieldSize: 64 * 1024, fileSize: maxBytes + 1, parts: 25 },
			defParamCharset: 'utf8',
		})
	} catch {
		throw new HttpError(400, 'errors.validation')
	}
	const finished = new Promise<void>((resolve, reject) => {
		parser.on('field', (name, value) => {
			fields[name] = value
		})
		parser.on('file', (name, stream, info) => {
			if (name !== 'file' || !info.filename || stored) {
				stream.resume()
				return
			}
			const contentType = (info.mimeType || 'application/octet-stream').toLowerCase()
			const filename = cleanFilename(info.filename)
			stored = storage.put(stream, maxBytes + 1).then(({ key, size }) => ({
				kind: attachmentKindOf(contentType),
				filename,
				contentType,
				size,
				status: 'stored' as const,
				storageKey: key,
				truncated: (stream as { truncated?: boolean }).truncated === true,
			}))
			// Settled below; a rejection here must not be unhandled meanwhile.
			stored.catch(() => {})
		})
		parser.on('close', resolve)
		parser.on('error', reject)
		req.on('aborted', () => reject(new HttpError(400, 'errors.validation')))
	})
	req.pipe(parser)
	try {
		await finished
	} catch (error) {
		const file = await (stored as Promise<NewAttachment> | null)?.catch(() => null)
		if (file?.storageKey) await storage.remove(file.storageKey)
		throw error instanceof HttpError ? error : new HttpError(400, 'errors.validation')
	}
	const upload = await (stored as Promise<NewAttachment & { truncated: boolean }> | null)
	if (!upload) return { fields, file: null }
	const { truncated, ...file } = upload
	if (truncated || file.size === 0) {
		await storage.remove(file.storageKey!)
		if (truncated) throw fieldError(req, 413, 'file', 'inbox:errors.fileTooLarge', { max: megabytes(req, maxBytes) })
		throw fieldError(req, 400, 'file', 'inbox:errors.fileEmpty')
	}
	return { fields, file }
}
