import { type LoaderFunctionArgs } from '@remix-run/node'
import { exportContacts } from '#app/.server/contacts.ts'
import { streamCsv } from '#app/.server/exports.ts'
import { requireUser } from '#app/.server/session.ts'
import { contactQuery } from '#app/utils/contacts.ts'

/** The CSV of the list's current filter and order, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const { search, label, sort, direction } = contactQuery(url.searchParams)
	return streamCsv(() => exportContacts(api, user.workspace.id, { search, label, sort, direction }), {
		locale,
		request: args.request,
		to: `/${locale}/dashboard/contacts${url.search}`,
		title: 'contacts.exportFailed',
	})
}
