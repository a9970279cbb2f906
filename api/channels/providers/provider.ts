import { type Channel, type ChannelKind, type DeliveryStatus } from '#api/db/schema.ts'

/**
 * What every channel kind does, one module per provider (PRODUCT.md, "channels"). The link
 * channel implements sending only: its visitors read their thread from our own page. The messaging
 * channels' issue adds webhook verification and parsing, and credential checks, to this interface.
 */
export type ChannelProvider = {
	kind: ChannelKind
	/**
	 * Delivers an outgoing message to the contact known on this channel as `to` (their identity's
	 * external id). Resolves with the provider's id of the message and its delivery state; throws a
	 * `DeliveryError` when the provider refuses it for good, anything else to be retried.
	 */
	send: (channel: Channel, message: { to: string; body: string }) => Promise<{ externalId: string | null; status: DeliveryStatus }>
}

/** A refusal that retrying will not change (an invalid recipient, a revoked token): the message is marked failed with this detail. */
export class DeliveryError extends Error {}
