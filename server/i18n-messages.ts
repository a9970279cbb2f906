import { type RequestHandler } from 'express'
import { isLocale, type Locale } from '#locales/languages.ts'
import { pageNamespaces, resources } from '#locales/resources.ts'

/** What each file holds: `messages.json` the words of every page, `{namespace}.json` a feature's own. */
function messagesOf(locale: Locale, file: string): object | undefined {
	if (file === 'messages.json') return resources[locale].common
	const namespace = pageNamespaces.find((name) => `${name}.json` === file)
	return namespace ? resources[locale][namespace] : undefined
}

/**
 * GET /_i18n/{locale}/messages.json: the web app's translations for one locale, and
 * /_i18n/{locale}/{namespace}.json for the namespaces a page asks for besides (its `handle.i18n`).
 * The browser asks with the build's version in the query, so a day of caching never serves stale words.
 */
export const i18nMessages: RequestHandler = (req, res) => {
	const { locale, file = '' } = req.params
	const messages = isLocale(locale) ? messagesOf(locale, file) : undefined
	if (!messages) {
		res.status(404).json({ message: `Page Not Found: ${req.path}`, statusCode: 404, details: null })
		return
	}
	res.setHeader('Cache-Control', 'public, max-age=86400, immutable')
	res.json(messages)
}
