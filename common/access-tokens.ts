/**
 * Access tokens (issue 33): a person's own (`personal`) or a workspace's integration identity
 * (`bot`), each limited by scopes, one read or read-and-write per area of `/v1`.
 */
export const tokenAreas = ['conversations', 'contacts', 'campaigns', 'settings'] as const
export type TokenArea = (typeof tokenAreas)[number]
export type TokenScope = `${TokenArea}:read` | `${TokenArea}:write`
export const tokenScopes: readonly TokenScope[] = tokenAreas.flatMap((area) => [`${area}:read`, `${area}:write`] as const)

export const tokenKinds = ['personal', 'bot'] as const
export type TokenKind = (typeof tokenKinds)[number]

/** What a token's string starts with, by kind: the API tells a token from a session by it. */
export const tokenPrefixes: Record<TokenKind, string> = { personal: 'crm_pat_', bot: 'crm_bot_' }
export const isAccessTokenString = (token: string): boolean => token.startsWith('crm_')

/** A token may live this many days at most; without an expiry it lives until revoked. */
export const maxExpiryDays = 3650

/** What a token may do in one area: nothing, read, or read and write (write implies read). */
export const areaAccesses = ['none', 'read', 'write'] as const
export type AreaAccess = (typeof areaAccesses)[number]

export function accessOf(scopes: readonly string[], area: TokenArea): AreaAccess {
	if (scopes.includes(`${area}:write`)) return 'write'
	return scopes.includes(`${area}:read`) ? 'read' : 'none'
}

/** Whether `scopes` allow a request of `area` that reads (GET, HEAD) or writes. */
export function scopesAllow(scopes: readonly string[], area: TokenArea, write: boolean): boolean {
	const access = accessOf(scopes, area)
	return write ? access === 'write' : access !== 'none'
}
