import dns from 'node:dns'
import https from 'node:https'
import net from 'node:net'
import tls from 'node:tls'

/**
 * The guard of every address the server connects to because someone gave it (a browser's push
 * endpoint, an outgoing webhook's URL): it never reaches loopback, private, link-local or other
 * internal addresses unless `WEBHOOK_ALLOW_PRIVATE=true`, so an address cannot turn the server
 * against its own network (SSRF). Checked when the address is given and again when it is used,
 * where the connection goes to the very address that was checked (`guardedAgent`), so a name that
 * resolves elsewhere the second time (DNS rebinding) is refused too.
 */

/** Why an address is refused: its scheme, an internal address, or a name that does not resolve. */
export type OutboundRefusal = 'scheme' | 'private' | 'unresolved'

export class OutboundAddressRefused extends Error {
	constructor(
		readonly reason: OutboundRefusal,
		readonly address: string,
	) {
		super(`outbound address refused (${reason}): ${address}`)
		this.name = 'OutboundAddressRefused'
	}
}

export type OutboundOptions = { allowPrivate: boolean; protocols?: readonly string[] }

// Not the public Internet: RFC 6890's special-purpose registries, less the globally reachable ones.
const internalV4: Array<[string, number]> = [
	['0.0.0.0', 8], // "this network", the unspecified address
	['10.0.0.0', 8], // RFC 1918
	['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
	['127.0.0.0', 8], // loopback
	['169.254.0.0', 16], // link-local (cloud metadata services live here)
	['172.16.0.0', 12], // RFC 1918
	['192.0.0.0', 24], // IETF protocol assignments
	['192.0.2.0', 24], // documentation
	['192.168.0.0', 16], // RFC 1918
	['198.18.0.0', 15], // benchmarking
	['198.51.100.0', 24], // documentation
	['203.0.113.0', 24], // documentation
	['224.0.0.0', 4], // multicast
	['240.0.0.0', 4], // reserved, and the broadcast address
]
const internalV6: Array<[string, number]> = [
	['::', 128], // unspecified
	['::1', 128], // loopback
	['100::', 64], // discard
	['2001:db8::', 32], // documentation
	['fc00::', 7], // unique-local
	['fe80::', 10], // link-local
	['fec0::', 10], // site-local (deprecated, still routed by some)
	['ff00::', 8], // multicast
]

const internal = new net.BlockList()
for (const [address, prefix] of internalV4) internal.addSubnet(address, prefix, 'ipv4')
for (const [address, prefix] of internalV6) internal.addSubnet(address, prefix, 'ipv6')

/** Whether an IP address (v4 or v6, any spelling) is on the public Internet. */
export function isPublicAddress(address: string): boolean {
	const family = net.isIP(address)
	if (family === 4) return !internal.check(address, 'ipv4')
	if (family !== 6) return false
	const embedded = embeddedIPv4(address)
	if (embedded) return isPublicAddress(embedded)
	return !internal.check(address, 'ipv6')
}

/**
 * The IPv4 address inside an IPv6 one that carries it: IPv4-mapped (::ffff:0:0/96), IPv4-compatible
 * (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16), each of which reaches that IPv4 address.
 */
function embeddedIPv4(address: string): string | undefined {
	const words = ipv6Words(address)
	if (!words) return undefined
	const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
	const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0)
	if (zeros(0, 5) && (words[5] === 0xffff || (words[5] === 0 && (words[6] !== 0 || (words[7] ?? 0) > 1)))) return v4(words[6]!, words[7]!)
	if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!)
	if (words[0] === 0x2002) return v4(words[1]!, words[2]!)
	return undefined
}

/** An IPv6 address's eight 16-bit words (a trailing dotted IPv4 part included), or undefined. */
function ipv6Words(address: string): number[] | undefined {
	let text = address.split('%')[0] ?? ''
	const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
	if (dotted) {
		const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
		text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
	}
	const [head = '', tail] = text.split('::')
	const part = (side: string) => (side === '' ? [] : side.split(':').map((word) => parseInt(word, 16)))
	const start = part(head)
	const end = tail === undefined ? [] : part(tail)
	const words = tail === undefined ? start : [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end]
	return words.length === 8 && words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : undefined
}

const lookupAll = (hostname: string) =>
	new Promise<dns.LookupAddress[]>((resolve, reject) =>
		dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
	)

/** Throws `OutboundAddressRefused` unless `url` may be reached: its scheme, and every address its host resolves to. */
export async function checkOutboundUrl(url: string, options: OutboundOptions): Promise<void> {
	const parsed = URL.canParse(url) ? new URL(url) : undefined
	if (!parsed || !(options.protocols ?? ['https:']).includes(parsed.protocol)) throw new OutboundAddressRefused('scheme', url)
	const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1')
	if (net.isIP(host)) {
		if (!options.allowPrivate && !isPublicAddress(host)) throw new OutboundAddressRefused('private', url)
		return
	}
	const addresses = await lookupAll(host).catch(() => [])
	if (addresses.length === 0) throw new OutboundAddressRefused('unresolved', url)
	if (!options.allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) throw new OutboundAddressRefused('private', url)
}

/**
 * A `lookup` for sockets that resolves as usual and refuses when any address is internal: the
 * socket then connects to an address this very lookup checked.
 */
export function guardedLookup(options: Pick<OutboundOptions, 'allowPrivate'>): net.LookupFunction {
	return (hostname, lookupOptions, callback) => {
		dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
			if (error) return callback(error, '', 0)
			if (!options.allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
				const refused = Object.assign(new OutboundAddressRefused('private', hostname), { code: 'EREFUSEDADDRESS' })
				return callback(refused as NodeJS.ErrnoException, '', 0)
			}
			if (lookupOptions.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, addresses)
			const first = addresses[0]
			if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0)
			callback(null, first.address, first.family)
		})
	}
}

const agents = new Map<string, https.Agent>()

/**
 * An HTTPS agent whose connections reach only what `guardedLookup` allows; `ca` is trusted besides the
 * system's authorities (OUTBOUND_CA_FILE). One per setting and trust, so its keep-alive connections
 * serve every push and webhook that goes out with them.
 */
export function guardedAgent(options: Pick<OutboundOptions, 'allowPrivate'> & { ca?: string }): https.Agent {
	const key = `${options.allowPrivate}:${options.ca ?? ''}`
	let agent = agents.get(key)
	if (!agent) {
		agent = new https.Agent({ keepAlive: true, lookup: guardedLookup(options), ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}) })
		agents.set(key, agent)
	}
	return agent
}
