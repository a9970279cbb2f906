export const SUPPORTED_PROTOCOLS = [5, 6, 7] as const

// Close codes from the Pusher Channels protocol. 4000-4099: do not reconnect unchanged,
// 4100-4199: reconnect after backing off, 4200-4299: reconnect immediately.
export const CloseCode = {
	AppNotFound: 4001,
	AppDisabled: 4003,
	OverConnectionQuota: 4004,
	PathNotFound: 4005,
	InvalidVersionFormat: 4006,
	UnsupportedProtocol: 4007,
	NoProtocolVersion: 4008,
	Unauthorized: 4009,
	OverCapacity: 4100,
	Reconnect: 4200,
	PongNotReceived: 4201,
	ClosedAfterInactivity: 4202,
} as const

// Codes carried by pusher:error messages that do not close the connection.
export const ErrorCode = {
	InvalidMessage: 4300,
	ClientEventRateLimit: 4301,
} as const

export interface PusherMessage {
	event: string
	channel?: string
	data?: unknown
	user_id?: string
}

export interface ClientMessage {
	event: string
	channel: string | undefined
	data: unknown
}

export interface SubscriptionError {
	type: string
	error: string
	status: number
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isArray(value: unknown): value is unknown[] {
	return Array.isArray(value)
}

export function encode(message: PusherMessage): string {
	return JSON.stringify(message)
}

export function parseClientMessage(text: string): ClientMessage | undefined {
	let value: unknown
	try {
		value = JSON.parse(text)
	} catch {
		return undefined
	}
	if (!isRecord(value) || typeof value.event !== 'string' || value.event === '') return undefined
	return {
		event: value.event,
		channel: typeof value.channel === 'string' ? value.channel : undefined,
		data: value.data,
	}
}

// Some clients send the data of pusher:* events JSON-encoded as a string rather than as an object.
export function dataObject(data: unknown): Record<string, unknown> | undefined {
	if (isRecord(data)) return data
	if (typeof data !== 'string') return undefined
	try {
		const parsed: unknown = JSON.parse(data)
		return isRecord(parsed) ? parsed : undefined
	} catch {
		return undefined
	}
}

export function connectionEstablished(socketId: string, activityTimeoutSeconds: number): string {
	return encode({
		event: 'pusher:connection_established',
		data: JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeoutSeconds }),
	})
}

export function errorMessage(code: number, message: string): string {
	return encode({ event: 'pusher:error', data: { code, message } })
}

export function subscriptionError(channel: string, error: SubscriptionError): string {
	return encode({ event: 'pusher:subscription_error', channel, data: error })
}

const MAX_CLOSE_REASON_BYTES = 123

// WebSocket close reasons are limited to 123 bytes; ws throws on longer ones.
export function closeReason(message: string): string {
	let reason = message
	while (byteLength(reason) > MAX_CLOSE_REASON_BYTES) reason = reason.slice(0, -1)
	return reason
}

export function byteLength(value: string): number {
	return Buffer.byteLength(value, 'utf8')
}
