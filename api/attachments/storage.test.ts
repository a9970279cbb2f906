import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { diskStorage, FileTooLarge } from './storage.ts'

const tmpRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), 'crm-uploads-'))

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
