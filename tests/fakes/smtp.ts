import net from 'node:net'
import { parseMail, type ReadMail } from '../support/mail.ts'

/** A mail the fake accepted: the envelope as the client gave it, and the message decoded. */
export type AcceptedMail = ReadMail & { from: string; recipients: string[]; raw: string }

/** Where a refusal comes: instead of the greeting (421: the server is closing), or in answer to MAIL FROM or to the data (451: try again later). */
export type Refusal = { code: 421 | 450 | 451; at: 'greeting' | 'mail' | 'data' }

export type FakeSmtp = {
	/** `smtp://127.0.0.1:{port}`: what SMTP_URL is set to. */
	url: string
	/** Every mail accepted so far, oldest first. */
	accepted: AcceptedMail[]
	/** How many transactions it refused so far. */
	refused: () => number
	/** Refuses every transaction from now on, as `refusal` says, until `accept()`. */
	refuse: (refusal: Refusal) => void
	accept: () => void
	/** Waits until a mail matching `predicate` was accepted; rejects after `timeoutMs`. */
	waitForMail: (predicate: (mail: AcceptedMail) => boolean, timeoutMs?: number) => Promise<AcceptedMail>
	/** Waits until it refused `count` transactions in all; rejects after `timeoutMs`. */
	waitForRefusals: (count: number, timeoutMs?: number) => Promise<void>
	close: () => Promise<void>
}

const hostname = 'fake-smtp.test'

/**
 * A small SMTP server on loopback that speaks RFC 5321 as far as a client sending one mail needs:
 * the 220 greeting, EHLO/HELO, MAIL FROM, RCPT TO, DATA (dot-stuffed, ended by a lone dot), RSET,
 * NOOP and QUIT. No TLS and no AUTH are offered. It can be told to refuse with a 4xx reply (a
 * transient failure: a client is to try again later) and then to accept.
 */
export async function startFakeSmtp(port = 0): Promise<FakeSmtp> {
	const accepted: AcceptedMail[] = []
	let refusals = 0
	let refusal: Refusal | null = null
	const waiters = new Set<() => void>()
	const sockets = new Set<net.Socket>()
	const wake = () => {
		for (const check of waiters) check()
	}
	const refuse = (socket: net.Socket, code: number) => {
		refusals++
		wake()
		socket.write(
			code === 421
				? `421 4.3.2 ${hostname} Service not available, closing transmission channel\r\n`
				: `${code} 4.3.0 Requested action aborted: try again later\r\n`,
		)
		if (code === 421) socket.end()
	}

	const server = net.createServer((socket) => {
		sockets.add(socket)
		socket.on('close', () => sockets.delete(socket))
		socket.on('error', () => socket.destroy())
		if (refusal?.at === 'greeting') {
			refuse(socket, refusal.code)
			return
		}
		socket.write(`220 ${hostname} ESMTP fake\r\n`)
		let buffer = ''
		let from: string | null = null
		let recipients: string[] = []
		let data: string[] | null = null
		const reset = () => {
			from = null
			recipients = []
			data = null
		}
		const reply = (line: string) => socket.write(`${line}\r\n`)

		const onLine = (line: string) => {
			if (data) {
				if (line !== '.') {
					// RFC 5321 4.5.2: a leading dot was doubled by the client.
					data.push(line.startsWith('.') ? line.slice(1) : line)
					return
				}
				const raw = `${data.join('\r\n')}\r\n`
				const envelope = { from: from ?? '', recipients }
				reset()
				if (refusal?.at === 'data') return refuse(socket, refusal.code)
				void parseMail(raw).then((mail) => {
					accepted.push({ ...mail, ...envelope, raw })
					reply(`250 2.0.0 Ok: queued as ${accepted.length}`)
					wake()
				})
				return
			}
			const [verb = '', ...rest] = line.split(' ')
			const argument = rest.join(' ')
			switch (verb.toUpperCase()) {
				case 'EHLO':
					return reply(`250-${hostname} greets ${argument}\r\n250-8BITMIME\r\n250 SMTPUTF8`)
				case 'HELO':
					return reply(`250 ${hostname}`)
				case 'MAIL': {
					const address = /^FROM:\s*<([^>]*)>/i.exec(argument)
					if (!address) return reply('501 5.5.4 Syntax: MAIL FROM:<address>')
					if (refusal?.at === 'mail') return refuse(socket, refusal.code)
					from = address[1]!
					recipients = []
					return reply('250 2.1.0 Ok')
				}
				case 'RCPT': {
					const address = /^TO:\s*<([^>]+)>/i.exec(argument)
					if (!address) return reply('501 5.5.4 Syntax: RCPT TO:<address>')
					if (from === null) return reply('503 5.5.1 Error: need MAIL command')
					recipients.push(address[1]!)
					return reply('250 2.1.5 Ok')
				}
				case 'DATA':
					if (recipients.length === 0) return reply('503 5.5.1 Error: need RCPT command')
					data = []
					return reply('354 End data with <CR><LF>.<CR><LF>')
				case 'RSET':
					reset()
					return reply('250 2.0.0 Ok')
				case 'NOOP':
					return reply('250 2.0.0 Ok')
				case 'QUIT':
					reply('221 2.0.0 Bye')
					return socket.end()
				default:
					return reply('502 5.5.2 Error: command not recognized')
			}
		}

		socket.on('data', (chunk: Buffer) => {
			buffer += chunk.toString('utf8')
			let end = buffer.indexOf('\r\n')
			while (end !== -1) {
				onLine(buffer.slice(0, end))
				buffer = buffer.slice(end + 2)
				end = buffer.indexOf('\r\n')
			}
		})
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	const address = server.address() as net.AddressInfo

	function waitUntil<T>(found: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
		return new Promise((resolve, reject) => {
			const check = () => {
				const value = found()
				if (value === undefined) return false
				waiters.delete(check)
				clearTimeout(timer)
				resolve(value)
				return true
			}
			const timer = setTimeout(() => {
				waiters.delete(check)
				reject(new Error(what()))
			}, timeoutMs)
			if (!check()) waiters.add(check)
		})
	}

	return {
		url: `smtp://127.0.0.1:${address.port}`,
		accepted,
		refused: () => refusals,
		refuse: (next) => {
			refusal = next
		},
		accept: () => {
			refusal = null
		},
		waitForMail: (predicate, timeoutMs = 15_000) =>
			waitUntil(
				() => accepted.find(predicate),
				timeoutMs,
				() => `the fake SMTP server accepted no matching mail in ${timeoutMs} ms (${accepted.length} accepted, ${refusals} refused)`,
			),
		waitForRefusals: (count, timeoutMs = 15_000) =>
			waitUntil(
				() => (refusals >= count ? true : undefined),
				timeoutMs,
				() => `the fake SMTP server refused ${refusals} transactions in ${timeoutMs} ms, not ${count}`,
			).then(() => {}),
		close: async () => {
			for (const socket of sockets) socket.destroy()
			await new Promise<void>((resolve) => server.close(() => resolve()))
		},
	}
}
