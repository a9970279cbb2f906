import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type ReadableStream as NodeWebStream } from 'node:stream/web'

/**
 * Where attachments' bytes live, behind the smallest interface a second backend (S3_*, later) needs:
 * put a stream under a new random key, read it back, remove it. Keys are ours (never a sender's file
 * name), so no name ever reaches a path on disk.
 */
export type Storage = {
	/** Keeps the stream under a new key; over `maxBytes` rejects with `FileTooLarge` and keeps nothing. */
	put: (body: Readable | ReadableStream<Uint8Array>, maxBytes: number) => Promise<{ key: string; size: number }>
	/** The bytes under `key`, or null when there are none. */
	open: (key: string) => Promise<{ stream: Readable; size: number } | null>
	remove: (key: string) => Promise<void>
}

/** A file over the size limit: nothing of it was kept. */
export class FileTooLarge extends Error {
	constructor(readonly maxBytes: number) {
		super(`the file is larger than ${maxBytes} bytes`)
		this.name = 'FileTooLarge'
	}
}

const keyPattern = /^[0-9a-f]{32}$/

/** Files under `root` (DATA_DIR/uploads by default), spread over 256 folders by the key's first two characters. */
export function diskStorage(root: string): Storage {
	const fileOf = (key: string) => {
		if (!keyPattern.test(key)) throw new Error('not a storage key')
		return path.join(root, key.slice(0, 2), key)
	}
	return {
		async put(body, maxBytes) {
			const key = crypto.randomBytes(16).toString('hex')
			const file = fileOf(key)
			const partial = `${file}.part`
			await fs.promises.mkdir(path.dirname(file), { recursive: true })
			let size = 0
			const counter = new Transform({
				transform(chunk: Buffer, _encoding, done) {
					size += chunk.length
					done(size > maxBytes ? new FileTooLarge(maxBytes) : null, chunk)
				},
			})
			const source = body instanceof Readable ? body : Readable.fromWeb(body as NodeWebStream<Uint8Array>)
			try {
				await pipeline(source, counter, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }))
				await fs.promises.rename(partial, file)
			} catch (error) {
				await fs.promises.rm(partial, { force: true })
				throw error
			}
			return { key, size }
		},
		async open(key) {
			try {
				const file = fileOf(key)
				const stat = await fs.promises.stat(file)
				return { stream: fs.createReadStream(file), size: stat.size }
			} catch {
				return null
			}
		},
		async remove(key) {
			await fs.promises.rm(fileOf(key), { force: true })
		},
	}
}

/** The storage as configured: local disk under DATA_DIR/uploads (the only backend so far). */
export function storageFor(config: { dataDir: string }): Storage {
	return diskStorage(path.join(config.dataDir, 'uploads'))
}
