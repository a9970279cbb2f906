import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import { pageNotFound } from '#app/utils/http.ts'

/** Any unknown path under a locale, GET or POST. */
export function loader({ request }: LoaderFunctionArgs) {
	pageNotFound(request)
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
