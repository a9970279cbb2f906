import { type BackendModule, type ReadCallback, type ResourceKey } from 'i18next'

type Loaded = { data: ResourceKey } | { error: string; retry: boolean }

async function load(url: string): Promise<Loaded> {
	try {
		const response = await fetch(url)
		if (response.ok) return { data: (await response.json()) as ResourceKey }
		// A server error may pass; a 404 will not.
		return { error: `${url} answered ${response.status}`, retry: response.status >= 500 }
	} catch (error) {
		return { error: `${url}: ${String(error)}`, retry: true }
	}
}

/**
 * Loads a language's words with `fetch` (i18next asks again for a language it changes to): what
 * i18next-http-backend did for the browser, without its XMLHttpRequest and fetch fallbacks.
 */
export function fetchBackend(urlOf: (language: string, namespace: string) => string): BackendModule {
	return {
		type: 'backend',
		init() {},
		read(language: string, namespace: string, callback: ReadCallback) {
			// i18next tries again (up to `maxRetries`) when the second argument is true.
			void load(urlOf(language, namespace)).then((loaded) => ('data' in loaded ? callback(null, loaded.data) : callback(loaded.error, loaded.retry)))
		},
	}
}
