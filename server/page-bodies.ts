import { type IncomingMessage } from 'node:http'
import { type Request, type Response } from 'express'
import { defaultLocale, isLocale, languageOf, localeFromAcceptLanguage, type Locale } from '#locales/languages.ts'
import { resources } from '#locales/resources.ts'

const kilobyte = 1024
const megabyte = 1024 * kilobyte

/** A page's limit: the bytes its post may have, and the size its refusal names (a file's limit where it takes a file). */
export type BodyLimit = { maxBytes: number; named: number }

// The composer's attachment and the contacts' CSV import: a file of UPLOAD_MAX_BYTES, with the room
// its form's other fields and the multipart framing take beside it.
const filePages = /^\/[^/]+\/dashboard\/(conversations|contacts)\/?$/
// A message, a campaign's body and its parameters, a contact's notes and attributes: a few thousand
// characters, each up to 9 bytes once percent-encoded.
const longTextPages = /^\/[^/]+\/(dashboard\/(campaign-manager|contacts\/itsForm)|c\/[^/]+)\/?$/
const besideFile = 64 * kilobyte
const longText = megabyte
const smallForm = 64 * kilobyte

/** What a post to `path` (a page, its `.data`, or a resource route) may carry: a small form unless the page takes a long text or a file. */
export function pageBodyLimit(path: string, uploadMaxBytes: number): BodyLimit {
	const page = path.replace(/\.data$/, '')
	// Up to four times the file's limit is still read (its file part only to the limit, by the page's upload
	// handler), so that a file a little too large is refused beside the field, with what was typed kept.
	if (filePages.test(page)) return { maxBytes: 4 * uploadMaxBytes + besideFile, named: uploadMaxBytes }
	if (longTextPages.test(page)) return { maxBytes: longText, named: longText }
	return { maxBytes: smallForm, named: smallForm }
}

/** A post whose body went past its page's limit (decision 015). */
export class BodyTooLarge extends Error {
	constructor(maxBytes: number) {
		super(`The body is over ${maxBytes} bytes`)
		this.name = 'BodyTooLarge'
	}
}

/**
 * `req`'s body as the page reads it, counted as it arrives: past `maxBytes` (a chunked body says no
 * length beforehand) the page's read fails with BodyTooLarge, nothing more is read, and `onTooLarge`
 * answers. What is left on the connection is discarded by discardUnreadBody once the answer is sent.
 * A body cut short by its client fails too: a page never reads a form missing its end.
 */
export function cappedBody(req: IncomingMessage, maxBytes: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
	let read = 0
	let settled = false
	let controller: ReadableStreamDefaultController<Uint8Array>
	const settle = () => {
		settled = true
		req.off('data', onData)
		req.off('end', onEnd)
		req.off('error', onError)
		req.off('close', onClose)
	}
	const onData = (chunk: Buffer) => {
		read += chunk.length
		if (read > maxBytes) {
			settle()
			req.pause()
			controller.error(new BodyTooLarge(maxBytes))
			onTooLarge()
			return
		}
		controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
		if ((controller.desiredSize ?? 0) <= 0) req.pause()
	}
	const onEnd = () => {
		settle()
		controller.close()
	}
	const onError = (error: Error) => {
		settle()
		controller.error(error)
	}
	const onClose = () => {
		if (!settled) onError(new Error('The request was closed before its body ended'))
	}
	return new ReadableStream<Uint8Array>(
		{
			start(streamController) {
				controller = streamController
				req.on('data', onData)
				req.once('end', onEnd)
				req.once('error', onError)
				req.once('close', onClose)
			},
			pull() {
				if (!settled) req.resume()
			},
			// The page is done with its body (it answered without reading it all): the rest is discarded after the answer.
			cancel() {
				settle()
				req.pause()
			},
		},
		{ highWaterMark: 64 * kilobyte, size: (chunk) => chunk.byteLength },
	)
}

/** The locale of the page posted to: its path's first segment, else the browser's, else the default. */
function localeOf(req: Request): Locale {
	const segment = req.path.split('/')[1]
	return isLocale(segment) ? segment : (localeFromAcceptLanguage(req.headers['accept-language']) ?? defaultLocale)
}

/** `bytes` as its reader writes sizes: `64 kB`, `16 Mo`, `١٦ ميغابايت`. */
export function sizeFor(locale: Locale, bytes: number): string {
	const inMegabytes = bytes >= megabyte
	return new Intl.NumberFormat(languageOf(locale).tag, { style: 'unit', unit: inMegabytes ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(
		bytes / (inMegabytes ? megabyte : kilobyte),
	)
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/**
 * The 413 of a post over its page's limit, in the page's language. A page posted by Remix's
 * JavaScript (`.data`) gets what its single fetch answers for an action that threw
 * `data({ message }, { status: 413 })` (turbo-stream's flat JSON of `{ error: ErrorResponse }`), so
 * that the error screen shows these words; a page posted without JavaScript gets a page of its own.
 */
export function answerTooLarge(req: Request, res: Response, limit: BodyLimit) {
	const locale = localeOf(req)
	const words = resources[locale].common.error
	const message = words.tooLarge.replace('{{max}}', sizeFor(locale, limit.named))
	if (req.path.endsWith('.data')) {
		const error = [{ _1: 2 }, 'error', ['ErrorResponse', 3, 6, 7], { _4: 5 }, 'message', message, 413, 'Payload Too Large']
		res.status(413).type('text/x-script').setHeader('Cache-Control', 'no-store')
		res.send(`${JSON.stringify(error)}\n`)
		return
	}
	const { tag, dir } = languageOf(locale)
	// Back to the page posted to, where its form is (a path of this site only, never `//another.site`).
	const back = /^\/(?![/\\])/.test(req.originalUrl) ? req.originalUrl : `/${locale}`
	res.status(413).type('html').setHeader('Cache-Control', 'no-store')
	res.send(`<!doctype html>
<html lang="${tag}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(words.titleTooLarge)}</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-block-size:100vh;margin:0;padding:2rem;box-sizing:border-box;text-align:center}p{max-inline-size:36rem}.status{font-size:4rem;font-weight:800;margin:0}</style>
</head>
<body>
<main>
<p class="status">413</p>
<h1>${escapeHtml(words.titleTooLarge)}</h1>
<p>${escapeHtml(words.descriptionTooLarge)}</p>
<p data-testid="error-message">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(back)}">${escapeHtml(words.goBack)}</a></p>
</main>
</body>
</html>
`)
}
