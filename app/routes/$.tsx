import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useRouteLoaderData } from '@remix-run/react'
import { withoutLocale } from '#app/.server/locale.ts'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import { type RootLoader } from '#app/root.tsx'

/** Paths of more than one segment outside /:lang: redirected under a locale, or not found. */
export async function loader({ request }: LoaderFunctionArgs) {
	throw await withoutLocale(request)
}

export async function action({ request }: ActionFunctionArgs) {
	throw await withoutLocale(request)
}

export default function NotFound() {
	return null
}

export function ErrorBoundary() {
	return <ErrorScreen referrer={useRouteLoaderData<RootLoader>('root')?.referrer} />
}
