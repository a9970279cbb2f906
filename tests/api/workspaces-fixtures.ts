import { type Role } from '#api/db/schema.ts'
import { createUser, createWorkspace, testDb } from './harness.ts'

export type TestUser = Awaited<ReturnType<typeof createUser>>

/** A workspace with one member of each role, a second agent to act on, and an outsider with a workspace of their own. */
export async function createTeam(name = 'Team workspace') {
	const [workspace, elsewhere] = await Promise.all([createWorkspace(name), createWorkspace('Elsewhere')])
	const member = (role: Role, label: string) => createUser({ workspaceId: workspace.id, role, name: `${label} of ${name}` })
	const [owner, admin, agent, otherAgent, outsider] = await Promise.all([
		member('owner', 'Owner'),
		member('admin', 'Admin'),
		member('agent', 'Agent'),
		member('agent', 'Second agent'),
		createUser({ workspaceId: elsewhere.id, role: 'owner', name: 'Outsider' }),
	])
	return { workspace, elsewhere, owner, admin, agent, otherAgent, outsider }
}

export type Team = Awaited<ReturnType<typeof createTeam>>

/** The roles of a workspace's members, by user id. */
export async function rolesIn(workspaceId: string): Promise<Record<string, Role>> {
	const rows = await testDb().selectFrom('members').select(['userId', 'role']).where('workspaceId', '=', workspaceId).execute()
	return Object.fromEntries(rows.map((row) => [row.userId, row.role]))
}

export async function currentWorkspaceOf(userId: string): Promise<string | null> {
	const user = await testDb().selectFrom('users').select('currentWorkspaceId').where('id', '=', userId).executeTakeFirstOrThrow()
	return user.currentWorkspaceId
}

/** Quoted-printable (or a Q-encoded header word) to text. */
function decodeQuotedPrintable(text: string): string {
	const bytes: number[] = []
	for (let i = 0; i < text.length; i++) {
		const hex = text.slice(i + 1, i + 3)
		if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
			bytes.push(parseInt(hex, 16))
			i += 2
		} else bytes.push(text.charCodeAt(i))
	}
	return Buffer.from(bytes).toString('utf8')
}

/** A part of a raw mail (`plain` or `html`), decoded from quoted-printable or base64. */
export function mailText(raw: string, type: 'plain' | 'html' = 'plain'): string {
	const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/)
	const part = parts.find((candidate) => new RegExp(`content-type:\\s*text/${type}`, 'i').test(candidate)) ?? raw
	const [head = '', ...rest] = part.split(/\r?\n\r?\n/)
	const body = rest.join('\n\n')
	const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase()
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(body.replace(/=\r?\n/g, ''))
	return body
}

/** A mail's decoded Subject header. */
export function mailSubject(raw: string): string {
	const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? ''
	return header
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(/\r?\n[ \t]/g, ' ')
		.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
			kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
		)
}

/** The header `name` of a raw mail. */
export function mailHeader(raw: string, name: string): string | undefined {
	return new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]?.trim()
}
