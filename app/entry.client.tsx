import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { getInitialNamespaces } from 'remix-i18next/client'
import { defaultLocale, isLocale, languages } from '#locales/languages.ts'
import { fetchBackend } from './i18n/fetch-backend.ts'
import { i18nOptions } from './i18n/i18n.ts'

const htmlLang = document.documentElement.dataset.locale
const locale = isLocale(htmlLang) ? htmlLang : defaultLocale
const codeOfTag = (tag: string) => languages.find((language) => language.tag === tag)?.code ?? defaultLocale

// A request cut short by the next one (a navigation or revalidation replacing another): single fetch
// leaves its AbortError rejected with nobody to catch it (react-router#14203). Nothing failed.
window.addEventListener('unhandledrejection', (event) => {
	if (event.reason instanceof Error && event.reason.name === 'AbortError') event.preventDefault()
})

async function hydrate() {
	try {
		await i18next
			.use(initReactI18next)
			.use(fetchBackend((tag, namespace) => `/_i18n/${codeOfTag(tag)}/${namespace === 'common' ? 'messages' : namespace}.json?v=${__BUILD_VERSION__}`))
			// The namespaces the page's routes ask for (`handle.i18n`) load before it hydrates, so the first render matches the server's.
			.init({ ...i18nOptions(locale), ns: ['common', ...getInitialNamespaces()] })
	} catch (error) {
		console.warn('Could not load translations', error)
	}
	// A locale that fails to load is not fatal: the page goes on with the words it has.
	if (!i18next.hasResourceBundle(i18next.language, 'common')) console.warn(`Translations for ${locale} did not load`)
	startTransition(() => {
		hydrateRoot(
			document,
			<I18nextProvider i18n={i18next}>
				<StrictMode>
					<RemixBrowser />
				</StrictMode>
			</I18nextProvider>,
		)
	})
}

void hydrate()
