import { PassThrough } from 'node:stream'
import { type AppLoadContext, type EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { isLocale, localeFromAcceptLanguage, defaultLocale } from '#locales/languages.ts'
import { NonceProvider } from './utils/nonce.tsx'
import { serverI18n } from './i18n/i18n.server.ts'

const ABORT_DELAY = 5_000

export default async function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	remixContext: EntryContext,
	loadContext: AppLoadContext,
) {
	const bot = isbot(request.headers.get('user-agent'))
	// Crawlers get the status and a plain body instead of the error screen (an unmatched route or an
	// error boundary); a page answered with a status of its own, like a form with its errors, is the page.
	if (bot && responseStatusCode >= 400 && remixContext.staticHandlerContext.errors) {
		return new Response(`${responseStatusCode}\n`, { status: responseStatusCode, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
	}
	const rootData = remixContext.staticHandlerContext.loaderData.root as { locale?: string } | undefined
	// Without the root's data (an action's error is shown before any loader runs): the path's locale, then the browser's.
	const pathLocale = new URL(request.url).pathname.split('/')[1]
	const locale = isLocale(rootData?.locale)
		? rootData.locale
		: isLocale(pathLocale)
			? pathLocale
			: (localeFromAcceptLanguage(request.headers.get('Accept-Language')) ?? defaultLocale)
	const i18n = await serverI18n(locale)
	const nonce = loadContext.cspNonce

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<I18nextProvider i18n={i18n}>
					<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
				</I18nextProvider>
			</NonceProvider>,
			{
				nonce,
				onShellReady() {
					shellRendered = true
				},
				// No page streams data of its own (no deferred loader data): by the time the page is whole
				// it is a few milliseconds after its shell, and it goes out in one piece, one system call
				// where the streamed render took three or more (decision 009).
				onAllReady() {
					const chunks: Buffer[] = []
					const body = new PassThrough()
					body.on('data', (chunk: Buffer) => chunks.push(chunk))
					body.once('end', () => {
						clearTimeout(abortTimer)
						const html = Buffer.concat(chunks)
						responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
						responseHeaders.set('Content-Length', String(html.byteLength))
						resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))
					})
					pipe(body)
				},
				onShellError(error: unknown) {
					clearTimeout(abortTimer)
					reject(error)
				},
				onError(error: unknown) {
					// After the shell a browser's page keeps its status, as when it was streamed; a crawler's is a 500.
					if (!shellRendered || bot) responseStatusCode = 500
					// Errors after the shell are reported by Remix to the error boundary; log the rest.
					if (shellRendered) console.error(error)
				},
			},
		)
		// Cleared once the page is whole: a pending timer would keep the whole render in memory for 6 s.
		const abortTimer = setTimeout(abort, ABORT_DELAY + 1_000)
	})
}
