import { type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useParams } from '@remix-run/react'
import { requireLocale } from '#app/.server/locale.ts'
import { CardPage } from '#app/components/card-page.tsx'

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireLocale(request, params)
	return null
}

/** The auth layout: a centred card for signing in, signing up and account recovery. */
export default function AuthLayout() {
	const { lang } = useParams()
	return (
		<CardPage locale={lang ?? ''}>
			<Outlet />
		</CardPage>
	)
}
