import { type FetchedAttachment, ProviderError } from './provider.ts'

/** Redirects a download follows: Meta's CDN sends a file from one of its hosts to another, never many times. */
const maxRedirects = 5
const redirectStatuses = new Set([301, 302, 303, 307, 308])

/**
 * GETs a provider's file; a refusal becomes a ProviderError of the right kind (a 5xx or a network error
 * is tried again). Redirects are followed by hand, each address checked with `allowed` before it is
 * asked (fetch would follow them to anywhere, a loopback or private address included, once the first
 * one had passed): by default a redirect stays on the first address's origin. `headers` (a token) go
 * to that origin only.
 */
export async function downloadFile(url: string, headers: Record<string, string> = {}, allowed?: (url: URL) => boolean): Promise<FetchedAttachment> {
	if (!URL.canParse(url)) throw new ProviderError('refused', 'The file’s address is not a URL')
	const first = new URL(url)
	const isAllowed = allowed ?? ((hop: URL) => hop.origin === first.origin)
	let address = first
	let response: Response
	const signal = AbortSignal.timeout(120_000)
	for (let redirects = 0; ; redirects++) {
		if (!isAllowed(address)) throw new ProviderError('refused', `The file is not on the provider’s servers (${address.host})`)
		try {
			response = await fetch(address, { headers: address.origin === first.origin ? headers : {}, redirect: 'manual', signal })
		} catch (error) {
			throw new ProviderError('unavailable', error instanceof Error ? error.message : String(error))
		}
		const location = response.headers.get('location')
		if (!redirectStatuses.has(response.status) || !location) break
		await response.body?.cancel()
		if (redirects === maxRedirects || !URL.canParse(location, address))
			throw new ProviderError('refused', `HTTP ${response.status} for the file: too many redirects, or one to nowhere`)
		address = new URL(location, address)
	}
	if (!response.ok || !response.body) {
		await response.body?.cancel()
		const detail = `HTTP ${response.status} for the file`
		if (response.status === 429) throw new ProviderError('rate-limited', detail, { status: response.status })
		if (response.status >= 500) throw new ProviderError('unavailable', detail, { status: response.status })
		if (response.status === 401) throw new ProviderError('unauthorized', detail, { status: response.status })
		throw new ProviderError('refused', detail, { status: response.status })
	}
	const length = Number(response.headers.get('content-length'))
	return { body: response.body, contentType: response.headers.get('content-type'), size: Number.isInteger(length) && length > 0 ? length : null }
}
