import fs from 'node:fs/promises'
import path from 'node:path'
import PostalMime from 'postal-mime'

/** A mail from the outbox, decoded (headers, quoted-printable, base64). */
export type ReadMail = {
	file: string
	to: string
	subject: string
	text: string
	html: string
	language: string | undefined
	/** Every header by its lower-case name (the last one of a name). */
	headers: Record<string, string>
}

/** Parses one raw .eml text. */
export async function parseMail(raw: string, file = ''): Promise<ReadMail> {
	const mail = await PostalMime.parse(raw)
	return {
		file,
		to: (mail.to ?? []).map((address) => ('address' in address ? address.address : address.name)).join(', '),
		subject: mail.subject ?? '',
		text: mail.text ?? '',
		html: mail.html ?? '',
		language: mail.headers.find((header) => header.key === 'content-language')?.value,
		headers: Object.fromEntries(mail.headers.map((header) => [header.key, header.value])),
	}
}

/** Every mail written to `DATA_DIR/outbox`, oldest first. */
export async function readOutbox(dataDir: string): Promise<ReadMail[]> {
	const directory = path.join(dataDir, 'outbox')
	const files = (await fs.readdir(directory).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort()
	return Promise.all(files.map(async (file) => parseMail(await fs.readFile(path.join(directory, file), 'utf8'), file)))
}

/** The first link in a mail that leads to `pathPart` (e.g. `/auth/verify-email`). */
export function linkIn(mail: ReadMail, pathPart: string): string {
	const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(pathPart))
	if (!link) throw new Error(`no link to ${pathPart} in the mail "${mail.subject}" to ${mail.to}`)
	return link
}
