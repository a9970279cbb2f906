import { type DB } from '#api/db/database.ts'
import { type Attachment, type AttachmentKind, type AttachmentStatus } from '#api/db/schema.ts'

/** A file of a message as members read it; its bytes are at `/v1/workspaces/{id}/attachments/{attachmentId}`. */
export type AttachmentJson = { id: string; kind: AttachmentKind; filename: string; contentType: string; size: number | null; status: AttachmentStatus }

export function attachmentJson(row: Attachment): AttachmentJson {
	return { id: row.id, kind: row.kind, filename: row.filename, contentType: row.contentType, size: row.size === null ? null : Number(row.size), status: row.status }
}

/** The files of these messages, by message id (one query for a page of the thread). */
export async function attachmentsOf(db: DB, messageIds: string[]): Promise<Map<string, AttachmentJson[]>> {
	const byMessage = new Map<string, AttachmentJson[]>()
	if (messageIds.length === 0) return byMessage
	const rows = await db.selectFrom('attachments').selectAll().where('messageId', 'in', messageIds).orderBy('createdAt').orderBy('id').execute()
	for (const row of rows) {
		const key = String(row.messageId)
		byMessage.set(key, [...(byMessage.get(key) ?? []), attachmentJson(row)])
	}
	return byMessage
}
