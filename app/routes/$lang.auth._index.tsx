import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { requireLocale } from '#app/.server/locale.ts'

/** `/{lang}/auth` on its own means signing in. */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const locale = await requireLocale(request, params)
	throw redirect(`/${locale}/auth/login`)
}
