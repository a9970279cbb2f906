import { type LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { rethrowApiError, requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { contactQuery } from '#app/utils/contacts.ts'

/** The CSV of the list's current filter and order, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const { search, label, sort, direction } = contactQuery(new URL(args.request.url).searchParams)
	const url = new URL(args.request.url)
	const answer = await api.stream(`/workspaces/${user.workspace.id}/contacts/export`, { search, label, sort, direction }, 'text/csv').catch(async (error: unknown) => {
		if (!(error instanceof ApiError) || error.statusCode === 401 || error.statusCode >= 500) return rethrowApiError(error, locale, args.request)
		const t = await serverT(locale)
		throw await redirectWithToast(`/${locale}/dashboard/contacts${url.search}`, { type: 'error', title: t('contacts.exportFailed'), description: error.message })
	})
	const headers = new Headers({ 'Cache-Control': 'no-store' })
	for (const name of ['Content-Type', 'Content-Disposition']) {
		const value = answer.headers.get(name)
		if (value) headers.set(name, value)
	}
	return new Response(answer.body, { status: 200, headers })
}
