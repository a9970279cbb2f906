import crypto from 'node:crypto'
import { type Channel } from '#api/db/schema.ts'
import { type Config } from '#config/config.ts'
import { openCredentials } from './crypto.ts'
import { type ChannelProvider, type Described, type ProviderError, type ProviderChannel } from './providers/provider.ts'

/** A channel as its provider works with it: credentials opened with ENCRYPTION_KEY. */
export function providerChannel(
	row: Pick<Channel, 'id' | 'workspaceId' | 'kind' | 'settings' | 'credentials' | 'webhookSecret'>,
	encryptionKey: string,
): ProviderChannel {
	return {
		id: row.id,
		workspaceId: row.workspaceId,
		kind: row.kind,
		settings: row.settings,
		credentials: row.credentials ? openCredentials(row.credentials, encryptionKey) : {},
		webhookSecret: row.webhookSecret,
	}
}

/** Where a provider posts a channel's events: outside `/v1`, on the product's public address. */
export function webhookUrl(config: Pick<Config, 'PUBLIC_URL'>, channel: Pick<Channel, 'kind' | 'id'>): string {
	return `${config.PUBLIC_URL}/webhooks/${channel.kind}/${channel.id}`
}

/** A secret of our own for a channel's webhooks (Telegram's secret_token allows letters, digits, - and _). */
export const newWebhookSecret = () => crypto.randomBytes(32).toString('base64url')

/** A provider's failure in words for people: the provider's own description, else the generic one by kind. */
export function describeFailure(provider: ChannelProvider | undefined, error: ProviderError): Described {
	return (
		provider?.describeError?.(error) ?? {
			key: `providerErrors.${error.kind === 'rate-limited' ? 'rateLimited' : error.kind}`,
			values: { detail: error.detail },
		}
	)
}
