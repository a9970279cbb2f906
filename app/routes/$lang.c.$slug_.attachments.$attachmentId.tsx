import { type LoaderFunctionArgs } from '@remix-run/node'
import { requireLocale } from '#app/.server/locale.ts'
import { readVisitorToken, visitorApi } from '#app/.server/visitor.ts'
import { streamAttachment } from '#app/.server/attachments.ts'
import { visitorAttachment } from '#app/.server/link.ts'

/** A file the team sent in the visitor's conversation, known by their cookie; anything else is the API's 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
	const locale = await requireLocale(request, params)
	const token = readVisitorToken(request)
	const client = visitorApi(request, context, locale, token)
	return streamAttachment(() => visitorAttachment(client, params.slug ?? '', params.attachmentId ?? ''))
}
