import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { preferredLocale } from '#app/.server/preferences.ts'
import { pageNotFound } from '#app/utils/http.ts'
import { ErrorScreen } from '#app/components/error-screen.tsx'

// A first segment shaped like a language tag (`de-de`, `pt`) is a locale we do not offer: 404.
const localeShaped = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i

/** A path without a locale prefix is redirected under the visitor's locale; `/de-de/…` is not found. */
export async function loader({ request }: LoaderFunctionArgs) {
	const url = new URL(request.url)
	const [first = ''] = url.pathname.split('/').filter(Boolean)
	if (localeShaped.test(first) || first.startsWith('_') || first.includes('.')) pageNotFound(request)
	return redirect(`/${await preferredLocale(request)}${url.pathname}${url.search}`)
}

export function action({ request }: ActionFunctionArgs) {
	pageNotFound(request)
}

export default function NotFound() {
	return null
}

export function ErrorBoundary() {
	return <ErrorScreen />
}
