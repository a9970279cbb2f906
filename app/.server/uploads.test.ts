import { describe, expect, it } from 'vitest'
import { fileTooLarge, megabytes, readForm } from './uploads.ts'

/** A browser's multipart post of the composer: text fields and one file. */
function composerPost(file: { name: string; type: string; bytes: Uint8Array<ArrayBuffer> } | null) {
	const form = new FormData()
	form.set('intent', 'reply')
	form.set('body', 'Voici le fichier')
	form.set('file', file ? new File([file.bytes], file.name, { type: file.type }) : new File([], '', { type: 'application/octet-stream' }))
	return new Request('http://crm.test/en-us/dashboard/conversations', { method: 'POST', body: form })
}

describe('readForm', () => {
	it('keeps a file within the limit with its name and type, and the text fields', async () => {
		const form = await readForm(composerPost({ name: 'étiquette.png', type: 'image/png', bytes: new Uint8Array(1000) }), 2000)
		const file = form.get('file')
		expect(file).toBeInstanceOf(File)
		expect(file).toMatchObject({ name: 'étiquette.png', type: 'image/png', size: 1000 })
		expect(form.get('body')).toBe('Voici le fichier')
	})

	it('drops a file over the limit but keeps the words typed beside it', async () => {
		const form = await readForm(composerPost({ name: 'big.bin', type: 'application/octet-stream', bytes: new Uint8Array(5000) }), 2000)
		expect(form.get('file')).toBe(fileTooLarge)
		expect(form.get('body')).toBe('Voici le fichier')
		expect(form.get('intent')).toBe('reply')
	})

	it('reads a file input left empty as no file, and any other form as usual', async () => {
		expect((await readForm(composerPost(null), 2000)).get('file')).toBe('')
		const plain = new Request('http://crm.test/x', { method: 'POST', body: new URLSearchParams({ intent: 'status', status: 'resolved' }) })
		expect((await readForm(plain, 2000)).get('status')).toBe('resolved')
	})
})

describe('megabytes', () => {
	it('says the limit in the reader’s language', () => {
		expect(megabytes(16 * 1024 * 1024, 'en-US')).toBe('16')
		expect(megabytes(1.5 * 1024 * 1024, 'fr')).toBe('1,5')
	})
})
