import { type Request } from 'express'
import { addressKey } from '#realtime/address.ts'

/** The client's address as Express believes it (TRUST_PROXY): what a session shows it was opened from. */
export function clientIp(req: Request): string {
	return req.ip ?? req.socket.remoteAddress ?? 'unknown'
}

/**
 * What the per-address limits count a request under: an IPv4 address as it is, an IPv6 one by its
 * /64, which one host is usually given whole (it could otherwise take a new address per attempt).
 * The same rule as the realtime server's connection limits.
 */
export function clientAddressKey(req: Request): string {
	return addressKey(clientIp(req))
}
