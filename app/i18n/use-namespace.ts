import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { languageOf, type Locale } from '#locales/languages.ts'

/** A namespace the pages read besides `common`; each page takes only its part. */
export type PageNamespace = 'channels'

export type PageWords = { namespace: PageNamespace; part: string; words: Record<string, unknown> }

/**
 * Translates with words the page's loader handed over (`namespacePart`): the browser downloads
 * `common` only, so a page brings the rest of what it shows, on the server and in the browser alike
 * (no request after hydration, nothing rendered twice). Keys are written `part.key`.
 */
export function useNamespace(locale: Locale, { namespace, part, words }: PageWords) {
	const { i18n } = useTranslation()
	const tag = languageOf(locale).tag
	if (!i18n.getResource(tag, namespace, part)) i18n.addResourceBundle(tag, namespace, { [part]: words }, true, false)
	return useMemo(() => i18n.getFixedT(tag, namespace), [i18n, tag, namespace])
}
