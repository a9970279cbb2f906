import { type ChannelProvider, type InboundAttachment, type ProviderChannel, ProviderError } from '#api/channels/providers/provider.ts'
import { type AttachmentKind, type AttachmentStatus } from '#api/db/schema.ts'
import { type JobConfig } from '#api/jobs/queue.ts'
import { FileTooLarge, type Storage } from './storage.ts'

/** An attachment ready to be kept beside its message: stored, or a note of why not. */
export type NewAttachment = {
	kind: AttachmentKind
	filename: string
	contentType: string
	size: number | null
	status: AttachmentStatus
	storageKey: string | null
}

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f]/g

/** A sender's file name as we keep it: no path, no control characters, at most 255 characters. */
export function cleanFilename(name: string, fallback = 'file'): string {
	const base = name.split(/[\\/]/).pop()?.replace(controlCharacters, '').trim() ?? ''
	return (base || fallback).slice(0, 255)
}

/**
 * Downloads a customer's files into the storage, in the `process-webhook` job (never in the webhook's
 * request). A file over UPLOAD_MAX_BYTES (as the provider announced it, or once its bytes pass it) is
 * kept as `too-large` and nothing of it is stored; one the provider refuses is `failed`. A provider
 * out of reach throws, after removing what this message had stored, so the job is tried again.
 */
export async function fetchAttachments(
	provider: ChannelProvider,
	channel: ProviderChannel,
	attachments: InboundAttachment[],
	config: JobConfig,
	storage: Storage,
): Promise<NewAttachment[]> {
	const kept: NewAttachment[] = []
	try {
		for (const attachment of attachments) kept.push(await fetchOne(provider, channel, attachment, config, storage))
	} catch (error) {
		await discardAttachments(storage, kept)
		throw error
	}
	return kept
}

async function fetchOne(
	provider: ChannelProvider,
	channel: ProviderChannel,
	attachment: InboundAttachment,
	config: JobConfig,
	storage: Storage,
): Promise<NewAttachment> {
	const note = (status: AttachmentStatus, size = attachment.size, contentType = attachment.contentType): NewAttachment => ({
		kind: attachment.kind,
		filename: cleanFilename(attachment.filename),
		contentType: contentType ?? 'application/octet-stream',
		size,
		status,
		storageKey: null,
	})
	const maxBytes = config.UPLOAD_MAX_BYTES
	if (!provider.fetchAttachment) return note('failed')
	if (attachment.size !== null && attachment.size > maxBytes) return note('too-large')
	let file
	try {
		file = await provider.fetchAttachment(channel, attachment.ref, config)
	} catch (error) {
		if (error instanceof ProviderError && !error.retryable) return note('failed')
		throw error
	}
	const contentType = attachment.contentType ?? file.contentType
	if (file.size !== null && file.size > maxBytes) {
		await file.body.cancel()
		return note('too-large', file.size, contentType)
	}
	try {
		const { key, size } = await storage.put(file.body, maxBytes)
		return { ...note('stored', size, contentType), storageKey: key }
	} catch (error) {
		if (error instanceof FileTooLarge) return note('too-large', attachment.size ?? file.size, contentType)
		throw error
	}
}

/** Removes the stored bytes of attachments that will not be kept (a duplicate delivery, a failed transaction). */
export async function discardAttachments(storage: Storage, attachments: NewAttachment[]) {
	await Promise.all(attachments.map((attachment) => (attachment.storageKey ? storage.remove(attachment.storageKey) : undefined)))
}
