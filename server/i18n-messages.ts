import { type RequestHandler } from 'express'
import { isLocale } from '#locales/languages.ts'
import { resources } from '#locales/resources.ts'

/**
 * GET /_i18n/{locale}/messages.json: the web app's translations for one locale. The browser asks
 * for it with the build's version in the query, so a day of caching never serves stale words.
 */
export const i18nMessages: RequestHandler = (req, res) => {
	const locale = req.params.locale
	if (!isLocale(locale)) {
		res.status(404).json({ message: `Page Not Found: ${req.path}`, statusCode: 404, details: null })
		return
	}
	res.setHeader('Cache-Control', 'public, max-age=86400, immutable')
	res.json(resources[locale].common)
}
