import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type ReadableStream as NodeWebStream } from 'node:stream/web'
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { type Config } from '#config/config.ts'

/**
 * Where attachments' bytes live, behind the smallest interface both backends need (`diskStorage`,
 * `s3Storage` for S3-compatible object storage): put a stream under a new random key, read it back,
 * remove it. Keys are ours (never a sender's file name), so no name ever reaches a path on disk.
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

export const keyPattern = /^[0-9a-f]{32}$/

/** A new random key. */
export const newKey = () => crypto.randomBytes(16).toString('hex')

/** Counts the bytes going through, and fails with `FileTooLarge` once they pass `maxBytes`. */
export function sizeLimit(maxBytes: number): Transform & { size: () => number } {
	let size = 0
	const counter = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			size += chunk.length
			done(size > maxBytes ? new FileTooLarge(maxBytes) : null, chunk)
		},
	})
	return Object.assign(counter, { size: () => size })
}

/** A web or Node stream, as a Node one. */
export const nodeStream = (body: Readable | ReadableStream<Uint8Array>): Readable =>
	body instanceof Readable ? body : Readable.fromWeb(body as NodeWebStream<Uint8Array>)

/** Files under `root` (DATA_DIR/uploads by default), spread over 256 folders by the key's first two characters. */
export function diskStorage(root: string): Storage {
	const fileOf = (key: string) => {
		if (!keyPattern.test(key)) throw new Error('not a storage key')
		return path.join(root, key.slice(0, 2), key)
	}
	return {
		async put(body, maxBytes) {
			const key = newKey()
			const file = fileOf(key)
			const partial = `${file}.part`
			await fs.promises.mkdir(path.dirname(file), { recursive: true })
			const counter = sizeLimit(maxBytes)
			try {
				await pipeline(nodeStream(body), counter, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }))
				await fs.promises.rename(partial, file)
			} catch (error) {
				await fs.promises.rm(partial, { force: true })
				throw error
			}
			return { key, size: counter.size() }
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

export type S3Options = { bucket: string; region: string; endpoint?: string; accessKeyId: string; secretAccessKey: string; forcePathStyle?: boolean }

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2…) through the AWS SDK v3, under the same
 * random keys. A file is first counted into a temporary file (so one over the limit never reaches the
 * bucket, and memory holds none of it), then sent with its length. With an endpoint of its own (MinIO)
 * the URLs are path-style unless told otherwise; checksums are sent only where S3 requires them,
 * which every S3-compatible server understands.
 */
export function s3Storage(options: S3Options): Storage {
	const client = new S3Client({
		region: options.region,
		endpoint: options.endpoint,
		forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
		credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
		requestChecksumCalculation: 'WHEN_REQUIRED',
		responseChecksumValidation: 'WHEN_REQUIRED',
	})
	const Bucket = options.bucket
	const missing = (error: unknown) =>
		error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
	return {
		async put(body, maxBytes) {
			const key = newKey()
			const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'crm-upload-'))
			const spooled = path.join(folder, key)
			try {
				const counter = sizeLimit(maxBytes)
				await pipeline(nodeStream(body), counter, fs.createWriteStream(spooled, { flags: 'wx', mode: 0o600 }))
				await client.send(
					new PutObjectCommand({
						Bucket,
						Key: key,
						Body: fs.createReadStream(spooled),
						ContentLength: counter.size(),
						ContentType: 'application/octet-stream',
					}),
				)
				return { key, size: counter.size() }
			} finally {
				await fs.promises.rm(folder, { recursive: true, force: true })
			}
		},
		async open(key) {
			if (!keyPattern.test(key)) return null
			try {
				const object = await client.send(new GetObjectCommand({ Bucket, Key: key }))
				if (!(object.Body instanceof Readable)) return null
				return { stream: object.Body, size: object.ContentLength ?? 0 }
			} catch (error) {
				if (missing(error)) return null
				throw error
			}
		},
		async remove(key) {
			if (!keyPattern.test(key)) throw new Error('not a storage key')
			await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
		},
	}
}

/** What decides the storage: S3_BUCKET (with the other S3_* variables) or else DATA_DIR. */
export type StorageConfig = Pick<Config, 'dataDir'> &
	Partial<Pick<Config, 'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>>

const configured = new WeakMap<StorageConfig, Storage>()

/**
 * The storage as configured: S3-compatible object storage when S3_BUCKET is set (app containers
 * then share no disk), else local disk under DATA_DIR/uploads. One per configuration (the S3 client
 * keeps its connections).
 */
export function storageFor(config: StorageConfig): Storage {
	let storage = configured.get(config)
	if (!storage) {
		const { S3_BUCKET: bucket, S3_REGION: region, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config
		storage =
			bucket && region && accessKeyId && secretAccessKey
				? s3Storage({ bucket, region, endpoint: config.S3_ENDPOINT, accessKeyId, secretAccessKey, forcePathStyle: config.S3_FORCE_PATH_STYLE })
				: diskStorage(path.join(config.dataDir, 'uploads'))
		configured.set(config, storage)
	}
	return storage
}
