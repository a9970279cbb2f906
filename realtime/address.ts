import { isIPv4, isIPv6 } from 'node:net'

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

// What connections are counted under for the per-address limit: an IPv4 address as is, an IPv6 one by its
// /64, since one host is usually handed a whole /64 and could otherwise take a new address per connection.
export function addressKey(address: string | undefined): string {
	if (address === undefined || address === '') return 'unknown'
	const mapped = MAPPED_IPV4.exec(address)
	if (mapped?.[1] !== undefined) return mapped[1]
	if (isIPv4(address)) return address
	// A zone (fe80::1%eth0) names the interface, not another host.
	const bare = address.split('%', 1)[0] ?? address
	if (!isIPv6(bare)) return address
	return `${expandIPv6(bare).slice(0, 4).join(':')}::/64`
}

// The eight groups of an IPv6 address, '::' filled in and a dotted IPv4 tail (::ffff:1.2.3.4) as two groups.
function expandIPv6(address: string): string[] {
	const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap(dottedToGroups))
	const [head = '', tail] = address.split('::', 2)
	const left = groups(head)
	const right = tail === undefined ? [] : groups(tail)
	const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0')
	return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16))
}

function dottedToGroups(group: string): string[] {
	if (!group.includes('.')) return [group]
	const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
	return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
}
