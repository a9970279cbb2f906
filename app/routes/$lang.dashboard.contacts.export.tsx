import { type LoaderFunctionArgs } from '@remix-run/node'
import { refusalToast, requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { contactQuery } from '#app/utils/contacts.ts'

/** The CSV of the list's current filter and order, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const { search, label, sort, direction } = contactQuery(new URL(args.request.url).searchParams)
	const url = new URL(args.request.url)
	const answer = await api
		.stream(`/workspaces/${user.workspace.id}/contacts/export`, { search, label, sort, direction }, 'text/csv')
		.catch(async (error: unknown) => {
			const t = await serverT(locale)
			throw await refusalToast(error, { locale, request: args.request, to: `/${locale}/dashboard/contacts${url.search}`, title: t('contacts.exportFailed') })
		})
	const headers = new Headers({ 'Cache-Control': 'no-store' })
	for (const name of ['Content-Type', 'Content-Disposition']) {
		const value = answer.headers.get(name)
		if (value) headers.set(name, value)
	}
	return new Response(answer.body, { status: 200, headers })
}
