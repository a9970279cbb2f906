import { type AppLoadContext } from '@remix-run/node'
import { isLocale } from '#locales/languages.ts'
import { createApiClient } from './api-client.ts'

export { ApiError, errorDetail, type ApiClient } from './api-client.ts'

/** The API as the current visitor: their token (crm-token cookie) and the locale of the URL. */
export function api(request: Request, context: AppLoadContext, params: { lang?: string } = {}, token?: string | null) {
	return createApiClient({
		baseUrl: context.apiBaseUrl,
		fetch: context.apiFetch,
		token,
		locale: isLocale(params.lang) ? params.lang : undefined,
		// The API rate-limits by this address; it believes it from loopback only.
		forwardedFor: context.clientIp || null,
		requestId: request.headers.get('X-Request-Id'),
	})
}
