import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { preferredLocale } from '#app/.server/preferences.ts'

/** `/` goes to the home page of the visitor's locale. */
export async function loader({ request }: LoaderFunctionArgs) {
	const url = new URL(request.url)
	return redirect(`/${preferredLocale(request)}${url.search}`)
}
