import { sql } from 'kysely'
import { type Attachment, type AttachmentKind, type AttachmentStatus } from '#api/db/schema.ts'

/** A file of a message as members read it; its bytes are at `/v1/workspaces/{id}/attachments/{attachmentId}`. */
export type AttachmentJson = { id: string; kind: AttachmentKind; filename: string; contentType: string; size: number | null; status: AttachmentStatus }

export function attachmentJson(row: Attachment): AttachmentJson {
	return {
		id: row.id,
		kind: row.kind,
		filename: row.filename,
		contentType: row.contentType,
		size: row.size === null ? null : Number(row.size),
		status: row.status,
	}
}

/**
 * A message's files as JSON (attachmentJson's shape), oldest first: read with its row, where
 * `messages` is in scope, so that a page of the thread is one statement.
 */
export const attachmentsOfMessage = sql<AttachmentJson[]>`(
	select coalesce(json_agg(json_build_object(
		'id', attachments.id, 'kind', attachments.kind, 'filename', attachments.filename, 'contentType', attachments.content_type, 'size', attachments.size, 'status', attachments.status
	) order by attachments.created_at, attachments.id), '[]'::json)
	from attachments where attachments.message_id = messages.id
)`
