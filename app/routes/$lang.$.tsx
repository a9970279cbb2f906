import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useRouteLoaderData } from '@remix-run/react'
import { requireLocale } from '#app/.server/locale.ts'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import { type RootLoader } from '#app/root.tsx'
import { pageNotFound } from '#app/utils/http.ts'

/** Any unknown path under a locale, GET or POST. */
export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireLocale(request, params)
	pageNotFound(request)
}

export async function action({ request, params }: ActionFunctionArgs) {
	await requireLocale(request, params)
	pageNotFound(request)
}

export default function NotFound() {
	return null
}

export function ErrorBoundary() {
	return <ErrorScreen referrer={useRouteLoaderData<RootLoader>('root')?.referrer} />
}
