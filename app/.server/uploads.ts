import { unstable_composeUploadHandlers, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData, type UploadHandler } from '@remix-run/node'
import { formOf } from '#app/utils/http.ts'

/** What a form's `file` holds when the chosen file was over the limit: its bytes were read and dropped. */
export const fileTooLarge = 'too-large'

/** Megabytes as the composer says them, in the reader's language (`languageTag`: "fr", "ar-EG"…). */
export const megabytes = (bytes: number, languageTag: string) => new Intl.NumberFormat(languageTag, { maximumFractionDigits: 1 }).format(bytes / (1024 * 1024))

/**
 * A page's form, with a file when it was posted as multipart: the `file` field kept in memory up to
 * `maxBytes` (past that, read to the end and dropped, so that the text fields still arrive and the
 * agent's words are not lost). Any other form is read as usual.
 */
export async function readForm(request: Request, maxBytes: number): Promise<FormData> {
	if (!request.headers.get('Content-Type')?.startsWith('multipart/form-data')) return formOf(request)
	const file: UploadHandler = async ({ name, filename, contentType, data }) => {
		if (name !== 'file' || filename === undefined) return undefined
		const chunks: Uint8Array[] = []
		let size = 0
		for await (const chunk of data) {
			size += chunk.length
			if (size <= maxBytes) chunks.push(chunk)
		}
		// A file input left empty: no file.
		if (!filename || size === 0) return filename ? new File([], filename, { type: contentType }) : ''
		return size > maxBytes ? fileTooLarge : new File(chunks as BlobPart[], filename, { type: contentType })
	}
	return formOf(request, (posted) =>
		unstable_parseMultipartFormData(posted, unstable_composeUploadHandlers(file, unstable_createMemoryUploadHandler({ maxPartSize: 64 * 1024 }))),
	)
}
