import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type S3Fake, startS3Fake } from '../../tests/fakes/s3.ts'
import { diskStorage, FileTooLarge, s3Storage, storageFor } from './storage.ts'

const roots: string[] = []
/** A fresh upload root, removed after the file's tests. */
function tmpRoot(): string {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-uploads-'))
	roots.push(root)
	return root
}
afterAll(() => {
	for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true })
})

describe('diskStorage', () => {
	it('keeps a file under a random key and reads it back', async () => {
		const root = tmpRoot()
		const storage = diskStorage(root)
		const { key, size } = await storage.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]), 1024)
		expect(key).toMatch(/^[0-9a-f]{32}$/)
		expect(size).toBe(11)
		const opened = await storage.open(key)
		expect(opened?.size).toBe(11)
		const chunks: Buffer[] = []
		for await (const chunk of opened!.stream) chunks.push(chunk as Buffer)
		expect(Buffer.concat(chunks).toString()).toBe('hello world')
		await storage.remove(key)
		expect(await storage.open(key)).toBeNull()
	})

	it('refuses a file over the limit and keeps nothing of it', async () => {
		const root = tmpRoot()
		const storage = diskStorage(root)
		await expect(storage.put(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000)).rejects.toBeInstanceOf(FileTooLarge)
		const left = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
		expect(left).toEqual([])
	})

	it('never opens a path made of something other than its own keys', async () => {
		const storage = diskStorage(tmpRoot())
		expect(await storage.open('../../etc/passwd')).toBeNull()
	})
})

const read = async (stream: Readable) => {
	const chunks: Buffer[] = []
	for await (const chunk of stream) chunks.push(chunk as Buffer)
	return Buffer.concat(chunks)
}

describe('s3Storage, against a local S3 speaking the real wire format', () => {
	let s3: S3Fake
	beforeAll(async () => {
		s3 = await startS3Fake()
	})
	afterAll(async () => {
		await s3.close()
	})
	const options = () => ({ bucket: s3.bucket, region: s3.region, endpoint: s3.url, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey })

	it('puts, gets and deletes an object under a random key, path-style and signed', async () => {
		const storage = s3Storage(options())
		const bytes = Buffer.from('%PDF-1.4 ٌréçu ✓')
		const { key, size } = await storage.put(Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]), 1024)
		expect(key).toMatch(/^[0-9a-f]{32}$/)
		expect(size).toBe(bytes.length)
		expect(s3.objects.get(key)?.bytes.equals(bytes)).toBe(true)
		expect(s3.requests).toContain(`PUT /${s3.bucket}/${key}`)
		const opened = await storage.open(key)
		expect(opened?.size).toBe(bytes.length)
		expect((await read(opened!.stream)).equals(bytes)).toBe(true)
		await storage.remove(key)
		expect(s3.objects.has(key)).toBe(false)
		expect(await storage.open(key)).toBeNull()
	})

	it('refuses a file over the limit before anything reaches the bucket', async () => {
		const storage = s3Storage(options())
		const before = s3.objects.size
		await expect(storage.put(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000)).rejects.toBeInstanceOf(FileTooLarge)
		expect(s3.objects.size).toBe(before)
	})

	it('takes a web stream as a provider’s download hands it over, and never asks for a key of another shape', async () => {
		const storage = s3Storage(options())
		const { key } = await storage.put(new Blob(['voice note']).stream(), 1024)
		expect((await read((await storage.open(key))!.stream)).toString()).toBe('voice note')
		const requests = s3.requests.length
		expect(await storage.open('../../etc/passwd')).toBeNull()
		expect(s3.requests.length).toBe(requests)
	})

	it('wrong credentials are an error, not a missing file', async () => {
		const storage = s3Storage({ ...options(), accessKeyId: 'SOMEONE-ELSE' })
		await expect(storage.open('0'.repeat(32))).rejects.toThrow(/Access Key Id/)
	})

	it('is what storageFor gives once S3_BUCKET is set, and the disk otherwise', async () => {
		const dataDir = tmpRoot()
		const config = {
			dataDir,
			S3_BUCKET: s3.bucket,
			S3_REGION: s3.region,
			S3_ENDPOINT: s3.url,
			S3_ACCESS_KEY_ID: s3.accessKeyId,
			S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
		}
		const { key } = await storageFor(config).put(Readable.from([Buffer.from('on s3')]), 1024)
		expect(s3.objects.has(key)).toBe(true)
		expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false)
		const onDisk = await storageFor({ dataDir }).put(Readable.from([Buffer.from('on disk')]), 1024)
		expect(fs.existsSync(path.join(dataDir, 'uploads', onDisk.key.slice(0, 2), onDisk.key))).toBe(true)
	})
})
