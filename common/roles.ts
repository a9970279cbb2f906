/**
 * A member's role in a workspace and what it may do (PRODUCT.md, "Roles"). The API enforces these
 * rules; the web app reads the same ones to show a member only what they may do. Nowhere else
 * compares roles (a lint rule keeps `app/` to these).
 */
export const roles = ['owner', 'admin', 'agent'] as const
export type Role = (typeof roles)[number]

/** The roles that manage the workspace: its agents and invitations, channels, labels, canned responses, campaigns, audit log. */
export const managers: readonly Role[] = ['owner', 'admin']
/** The roles an invitation may grant, and a role may be changed to: ownership is only ever transferred. */
export const invitedRoles = ['admin', 'agent'] as const satisfies readonly Role[]
export type InvitedRole = (typeof invitedRoles)[number]

export const canManage = (role: Role): boolean => managers.includes(role)

/** Whether the workspace's rule "agents see only their teams' conversations" (`agentsSeeOwnTeams`) narrows a member of `role`: agents only. */
export const seesOwnTeamsOnly = (role: Role, agentsSeeOwnTeams: boolean): boolean => role === 'agent' && agentsSeeOwnTeams
export const isOwner = (role: Role): boolean => role === 'owner'

/** Whether a member of role `by` may change the role of, or remove, another member of role `of`: no one touches the owner. */
export const mayChangeMember = (by: Role, of: Role): boolean => canManage(by) && !isOwner(of)

/** Whether a member of role `by` may reset another's two-step sign-in (role `of`): the owner anyone's, an admin an agent's. */
export const mayResetTwoFactor = (by: Role, of: Role): boolean => mayChangeMember(by, of) && (isOwner(by) || of === 'agent')
