import { serverT } from '#app/i18n/i18n.server.ts'
import { type Locale } from '#locales/languages.ts'
import { streamOn } from './attachments.ts'
import { refusalToast } from './session.ts'

/**
 * A CSV the API writes, streamed through as it comes, never cached. A refusal (the database away,
 * a filter refused) goes back to the page it came from (`to`), with a toast titled by `title`: a translation key (`ns:key` for another namespace than common).
 */
export async function streamCsv(load: () => Promise<Response>, refused: { locale: Locale; request: Request; to: string; title: string }): Promise<Response> {
	const answer = await load().catch(async (error: unknown) => {
		const t = await serverT(refused.locale)
		throw await refusalToast(error, { locale: refused.locale, request: refused.request, to: refused.to, title: t(refused.title) })
	})
	return streamOn(answer, ['Content-Type', 'Content-Disposition'], new Headers({ 'Cache-Control': 'no-store' }))
}
