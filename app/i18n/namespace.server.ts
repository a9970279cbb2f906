import { createInstance, type TFunction } from 'i18next'
import { languageOf, type Locale } from '#locales/languages.ts'
import { resources } from '#locales/resources.ts'
import { type PageNamespace, type PageWords } from './use-namespace.ts'

const translators = new Map<string, Promise<TFunction>>()

/** Translates from `namespace` in a loader or an action (page titles, toasts); one instance per locale and namespace. */
export function namespaceT(locale: Locale, namespace: PageNamespace): Promise<TFunction> {
	const key = `${locale} ${namespace}`
	let translator = translators.get(key)
	if (!translator) {
		const tag = languageOf(locale).tag
		const instance = createInstance()
		translator = instance
			.init({ lng: tag, resources: { [tag]: { [namespace]: resources[locale][namespace] } }, ns: [namespace], defaultNS: namespace, interpolation: { escapeValue: false }, initImmediate: false })
			.then(() => instance.getFixedT(tag, namespace))
		translators.set(key, translator)
	}
	return translator
}

/** The words of one part of a namespace (`ui`, `link`) for a page's loader to hand to `useNamespace`. */
export function namespacePart(locale: Locale, namespace: PageNamespace, part: string): PageWords {
	const tree = resources[locale][namespace] as Record<string, unknown>
	return { namespace, part, words: tree[part] as Record<string, unknown> }
}
