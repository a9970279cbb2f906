import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useParams, useRouteLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { useEffect } from 'react'
import { useChangeLanguage } from 'remix-i18next/react'
import { defaultTheme } from '#common/theme.ts'
import { isLocale, languageOf, defaultLocale } from '#locales/languages.ts'
import { ErrorScreen } from './components/error-screen.tsx'
import { ProgressBar } from './components/progress-bar.tsx'
import { Toaster } from './components/toaster.tsx'
import { getThemePreference, preferredLocale } from './.server/preferences.ts'
import { getToast } from './.server/toast.ts'
import { useNonce } from './utils/nonce.tsx'
import './styles/theme.css.ts'
import './styles/global.css.ts'

export const links: LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

export const meta: MetaFunction = () => [{ title: 'CRM' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
	// Pages outside /:lang (the error screen for /de-de/…) still speak the visitor's language.
	const locale = isLocale(params.lang) ? params.lang : preferredLocale(request)
	const [theme, { toast, headers }] = await Promise.all([getThemePreference(request), getToast(request)])
	return data({ locale, theme, toast, referrer: sameOriginReferrer(request) }, { headers: headers ?? undefined })
}

export type RootLoader = typeof loader

/**
 * The root's data (theme, toast, the referrer for a page without JavaScript) comes from cookies and
 * headers that a link to the same page with other query values (a conversation opened, a filter, a
 * page of a list) does not change: no request for it then. A post (its toast), a reload and any other
 * page read it again.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
	const samePage = currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search
	return samePage && (!formMethod || formMethod === 'GET') ? false : defaultShouldRevalidate
}

/** Where 'Go Back' leads without JavaScript: the previous page of this site, if any. */
function sameOriginReferrer(request: Request): string | null {
	const referrer = request.headers.get('Referer')
	if (!referrer || !URL.canParse(referrer)) return null
	const from = new URL(referrer)
	const here = new URL(request.url)
	return from.host === here.host && from.pathname !== here.pathname ? from.pathname + from.search : null
}

export function Layout({ children }: { children: React.ReactNode }) {
	const rootData = useRouteLoaderData<RootLoader>('root')
	// Without the root's data (an action's error): the locale of the path.
	const { lang } = useParams()
	const locale = rootData?.locale ?? (isLocale(lang) ? lang : defaultLocale)
	const theme = rootData?.theme ?? defaultTheme
	const language = languageOf(locale)
	const nonce = useNonce()
	useChangeLanguage(language.tag)
	return (
		<html lang={language.tag} dir={language.dir} data-locale={locale} data-theme={theme.theme} data-mode={theme.mode} data-radius={theme.radius}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="color-scheme" content={theme.mode === 'system' ? 'light dark' : theme.mode} />
				<Meta />
				<Links />
			</head>
			<body>
				<ProgressBar />
				{children}
				<Toaster toast={rootData?.toast ?? null} dir={language.dir} />
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

export default function App() {
	// Marks the document once the client has taken over (tests wait for it).
	useEffect(() => {
		document.documentElement.dataset.hydrated = 'true'
	}, [])
	return <Outlet />
}

export function ErrorBoundary() {
	return <ErrorScreen referrer={useRouteLoaderData<RootLoader>('root')?.referrer} />
}
