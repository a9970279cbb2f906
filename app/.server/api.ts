import { type AppLoadContext } from '@remix-run/node'
import { isLocale } from '#locales/languages.ts'
import { createApiClient } from './api-client.ts'

export { ApiError, type ApiClient } from './api-client.ts'

/** The API as the current visitor: their token (crm-token cookie) and the locale of the URL. */
export function api(request: Request, context: AppLoadContext, params: { lang?: string } = {}, token?: string | null) {
	return createApiClient({
		baseUrl: context.apiBaseUrl,
		token,
		locale: isLocale(params.lang) ? params.lang : undefined,
		forwardedFor: request.headers.get('X-Forwarded-For'),
		requestId: request.headers.get('X-Request-Id'),
	})
}
