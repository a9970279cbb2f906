import https from 'node:https'
import { type AddressInfo } from 'node:net'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { checkOutboundUrl, guardedAgent, guardedLookup, isPublicAddress, OutboundAddressRefused } from './outbound-address.ts'

const refusal = (promise: Promise<unknown>) =>
	promise.then(
		() => undefined,
		(error: unknown) => (error instanceof OutboundAddressRefused ? error.reason : error),
	)

describe('isPublicAddress', () => {
	test.each([
		'127.0.0.1',
		'127.255.0.9',
		'0.0.0.0',
		'10.1.2.3',
		'172.16.0.1',
		'172.31.255.255',
		'192.168.1.1',
		'169.254.169.254',
		'100.64.0.1',
		'100.127.255.255',
		'224.0.0.1',
		'239.255.255.250',
		'255.255.255.255',
		'::',
		'::1',
		'fc00::1',
		'fd12:3456::1',
		'fe80::1',
		'fe80::1%eth0',
		'ff02::1',
		'::ffff:127.0.0.1',
		'::ffff:7f00:1',
		'::ffff:10.0.0.1',
		'::ffff:169.254.169.254',
		'::127.0.0.1',
		'64:ff9b::10.0.0.1',
		'64:ff9b::a9fe:a9fe',
		'2002:c0a8:0101::1',
		'2002:7f00:1::',
		'not an address',
		'',
	])('%s is not public', (address) => {
		expect(isPublicAddress(address)).toBe(false)
	})

	test.each([
		'1.1.1.1',
		'8.8.8.8',
		'172.32.0.1',
		'100.128.0.1',
		'192.169.0.1',
		'2606:4700:4700::1111',
		'2a00:1450:4007:80e::200e',
		'::ffff:8.8.8.8',
		'64:ff9b::808:808',
	])('%s is public', (address) => {
		expect(isPublicAddress(address)).toBe(true)
	})

	test('every spelling of a private IPv4 address inside IPv6 is refused as the address itself is', () => {
		const privateV4 = fc.oneof(
			fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
			fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
			fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
			fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
			fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
			fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
		)
		fc.assert(
			fc.property(privateV4, ([a, b, c, d]) => {
				const hex = (high: number, low: number) => ((high << 8) | low).toString(16)
				for (const spelling of [
					`${a}.${b}.${c}.${d}`,
					`::ffff:${a}.${b}.${c}.${d}`,
					`::ffff:${hex(a, b)}:${hex(c, d)}`,
					`64:ff9b::${hex(a, b)}:${hex(c, d)}`,
					`2002:${hex(a, b)}:${hex(c, d)}::1`,
				]) {
					if (isPublicAddress(spelling)) return false
				}
				return true
			}),
		)
	})

	test('an IPv4 address is public exactly when its mapped IPv6 form is', () => {
		fc.assert(fc.property(fc.ipV4(), (address) => isPublicAddress(address) === isPublicAddress(`::ffff:${address}`)))
	})
})

describe('checkOutboundUrl', () => {
	test('only https, and never an internal address unless allowed', async () => {
		const strict = { allowPrivate: false }
		expect(await refusal(checkOutboundUrl('http://8.8.8.8/push', strict))).toBe('scheme')
		expect(await refusal(checkOutboundUrl('not a url', strict))).toBe('scheme')
		expect(await refusal(checkOutboundUrl('https://127.0.0.1/push', strict))).toBe('private')
		expect(await refusal(checkOutboundUrl('https://[::1]:8443/push', strict))).toBe('private')
		expect(await refusal(checkOutboundUrl('https://[::ffff:a9fe:a9fe]/latest', strict))).toBe('private')
		expect(await refusal(checkOutboundUrl('https://localhost/push', strict))).toBe('private')
		expect(await refusal(checkOutboundUrl('https://no-such-host.invalid/push', strict))).toBe('unresolved')
		expect(await refusal(checkOutboundUrl('https://8.8.8.8/push', strict))).toBeUndefined()
		expect(await refusal(checkOutboundUrl('https://127.0.0.1/push', { allowPrivate: true }))).toBeUndefined()
		expect(await refusal(checkOutboundUrl('https://localhost/push', { allowPrivate: true }))).toBeUndefined()
		expect(await refusal(checkOutboundUrl('http://127.0.0.1/push', { allowPrivate: true }))).toBe('scheme')
		expect(await refusal(checkOutboundUrl('http://127.0.0.1/hook', { allowPrivate: true, protocols: ['https:', 'http:'] }))).toBeUndefined()
	})
})

describe('guardedAgent', () => {
	test('a connection by name to an internal address is refused at connection time, allowed when told', async () => {
		const server = https.createServer((_req, res) => res.end('ok'))
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		const { port } = server.address() as AddressInfo
		const get = (allowPrivate: boolean) =>
			new Promise<string>((resolve) => {
				const agent = guardedAgent({ allowPrivate })
				https
					.get(`https://localhost:${port}/`, { agent, rejectUnauthorized: false }, () => resolve('connected'))
					.on('error', (error: NodeJS.ErrnoException) => resolve(error instanceof OutboundAddressRefused ? error.reason : (error.code ?? error.message)))
					.on('close', () => agent.destroy())
			})
		try {
			expect(await get(false)).toBe('private')
			// It got as far as TLS: the lookup let the socket connect.
			expect(await get(true)).not.toBe('private')
		} finally {
			server.close()
		}
	})

	test('the lookup answers as dns.lookup does, one address or all', async () => {
		const lookup = guardedLookup({ allowPrivate: true })
		const one = await new Promise<unknown>((resolve) => lookup('localhost', { family: 4 }, (_error, address, family) => resolve([address, family])))
		expect(one).toEqual(['127.0.0.1', 4])
		const all = await new Promise<unknown>((resolve) => lookup('localhost', { family: 4, all: true }, (_error, addresses) => resolve(addresses)))
		expect(all).toEqual([{ address: '127.0.0.1', family: 4 }])
	})
})
