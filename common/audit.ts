/**
 * What the audit log records, each the key of its line under `audit:events` in the locales. A
 * line's values are names and counts, never a secret: a channel's change lists the fields that
 * changed, not what they became.
 */
export const auditKinds = [
	'session.signedIn',
	'member.roleChanged',
	'member.removed',
	'member.left',
	'member.ownershipTransferred',
	'member.twoFactorReset',
	'invitation.created',
	'invitation.revoked',
	'invitation.accepted',
	'channel.created',
	'channel.updated',
	'channel.credentialsReplaced',
	'channel.deleted',
	'contacts.deleted',
	'contacts.imported',
	'contacts.merged',
	'conversation.assigned',
	'conversation.unassigned',
	'campaign.started',
	'campaign.cancelled',
	'export.contacts',
	'export.campaignRecipients',
	'export.report',
	'twoFactor.enabled',
	'twoFactor.disabled',
	'workspace.twoFactorRequired',
	'workspace.twoFactorOptional',
	'token.created',
	'token.revoked',
	'token.renamed',
	'token.used',
	'webhook.created',
	'webhook.updated',
	'webhook.deleted',
	'webhook.secretRolled',
] as const
export type AuditKind = (typeof auditKinds)[number]

/** One line of the audit log as stored: its kind (the key under `audit:events`) and what it is said with. */
export type AuditLine = {
	kind: string
	values: Record<string, string | number>
	actor: { name: string }
}

type Translate = (key: string, options?: Record<string, unknown>) => string

const roleValues = ['role', 'from', 'to'] as const

/**
 * The line in the reader's language, at the time it is read (the page and the API's CSV alike):
 * roles, changed fields and a report's table are stored as words of the code and translated here.
 */
export function auditLineText(t: Translate, line: AuditLine): string {
	const values: Record<string, unknown> = {
		...line.values,
		actor: line.actor.name,
		interpolation: { escapeValue: false },
	}
	for (const name of roleValues) if (typeof line.values[name] === 'string') values[name] = t(`audit:roles.${line.values[name]}`)
	if (typeof line.values.fields === 'string') {
		values.fields = line.values.fields
			.split(',')
			.filter(Boolean)
			.map((field) => t(`audit:fields.${field}`, { defaultValue: field }))
			.join(', ')
	}
	if (typeof line.values.table === 'string')
		values.table = t(`audit:exports.${line.values.table}`, {
			defaultValue: line.values.table,
		})
	if (line.kind.startsWith('invitation.') && line.kind !== 'invitation.accepted') values.invitee = line.values.email || t('audit:linkInvitee')
	return t(`audit:events.${line.kind}`, values)
}
