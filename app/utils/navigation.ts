import { managers, roles, type Role } from '#common/roles.ts'

export type NavItem = { path: string; label: string; roles: readonly Role[]; group: 'main' | 'settings' }

const everyone = roles

/**
 * The dashboard's sidebar: paths after `/{lang}/dashboard`, the translation key of their label
 * and who may open them. A route appears here once its issue has landed.
 */
export const navigation: readonly NavItem[] = [
	{ path: '', label: 'nav.overview', roles: everyone, group: 'main' },
	{ path: '/conversations', label: 'nav.conversations', roles: everyone, group: 'main' },
	{ path: '/contacts', label: 'nav.contacts', roles: everyone, group: 'main' },
	{ path: '/campaign-manager', label: 'nav.campaigns', roles: everyone, group: 'main' },
	{ path: '/team-members', label: 'nav.teamMembers', roles: everyone, group: 'main' },
	{ path: '/settings/agents', label: 'nav.agents', roles: managers, group: 'settings' },
	{ path: '/settings/labels', label: 'nav.labels', roles: everyone, group: 'settings' },
	{ path: '/settings/canned-responses', label: 'nav.cannedResponses', roles: everyone, group: 'settings' },
	{ path: '/settings/channels', label: 'nav.channels', roles: everyone, group: 'settings' },
	{ path: '/settings/teams', label: 'nav.teams', roles: everyone, group: 'settings' },
	{ path: '/settings/automation', label: 'nav.automation', roles: managers, group: 'settings' },
	{ path: '/settings/workspaces', label: 'nav.workspaces', roles: everyone, group: 'settings' },
	{ path: '/settings/integrations', label: 'nav.integrations', roles: managers, group: 'settings' },
	{ path: '/settings/audit-log', label: 'nav.auditLog', roles: managers, group: 'settings' },
	{ path: '/profile', label: 'nav.profile', roles: everyone, group: 'settings' },
]

export function navigationFor(role: Role | undefined): NavItem[] {
	return navigation.filter((item) => (role ? item.roles.includes(role) : item.path === '/profile'))
}
