import { type FetchedAttachment, ProviderError } from './provider.ts'

/** GETs a provider's file; a refusal becomes a ProviderError of the right kind (a 5xx or a network error is tried again). */
export async function downloadFile(url: string, headers: Record<string, string> = {}): Promise<FetchedAttachment> {
	let response: Response
	try {
		response = await fetch(url, { headers, signal: AbortSignal.timeout(120_000) })
	} catch (error) {
		throw new ProviderError('unavailable', error instanceof Error ? error.message : String(error))
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
