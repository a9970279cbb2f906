import { type ColumnType, type Generated, type Insertable, type Selectable, type Updateable } from 'kysely'

type CreatedAt = ColumnType<Date, Date | string | undefined, never>
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>

export const roles = ['owner', 'admin', 'agent'] as const
export type Role = (typeof roles)[number]
export const availabilities = ['online', 'busy', 'offline'] as const
export type Availability = (typeof availabilities)[number]

export interface UsersTable {
	id: Generated<string>
	email: string
	name: string
	passwordHash: string
	emailVerifiedAt: Date | null
	locale: Generated<string>
	theme: Generated<string>
	currentWorkspaceId: string | null
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export interface WorkspacesTable {
	id: Generated<string>
	name: string
	slug: string
	timezone: Generated<string>
	defaultLocale: Generated<string>
	logoColor: Generated<string>
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export interface MembersTable {
	workspaceId: string
	userId: string
	role: Role
	availability: Generated<Availability>
	createdAt: CreatedAt
}

export interface SessionsTable {
	id: Generated<string>
	userId: string
	tokenHash: string
	userAgent: string | null
	ip: string | null
	createdAt: CreatedAt
	lastUsedAt: Generated<Date>
	expiresAt: Date
}

export const tokenPurposes = ['verify_email', 'reset_password'] as const
export type TokenPurpose = (typeof tokenPurposes)[number]

export interface AccountTokensTable {
	id: Generated<string>
	userId: string
	purpose: TokenPurpose
	tokenHash: string
	createdAt: CreatedAt
	expiresAt: Date
	usedAt: Date | null
}

/** A rate-limit counter in rate-limiter-flexible's PostgreSQL layout (`expire` in epoch milliseconds). */
export interface RateLimitsTable {
	key: string
	points: number
	expire: number | null
}

/** The database as Kysely sees it (camelCase; CamelCasePlugin maps to snake_case columns). */
export interface Database {
	users: UsersTable
	workspaces: WorkspacesTable
	members: MembersTable
	sessions: SessionsTable
	accountTokens: AccountTokensTable
	rateLimits: RateLimitsTable
	invitations: InvitationsTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Workspace = Selectable<WorkspacesTable>
export type Member = Selectable<MembersTable>
export type Session = Selectable<SessionsTable>

export const invitationMethods = ['link', 'email'] as const
export type InvitationMethod = (typeof invitationMethods)[number]
/** The roles an invitation may grant: ownership is only ever transferred. */
export const invitedRoles = ['admin', 'agent'] as const
export type InvitedRole = (typeof invitedRoles)[number]

export interface InvitationsTable {
	id: Generated<string>
	workspaceId: string
	code: string
	method: InvitationMethod
	email: string | null
	role: InvitedRole
	expiresAt: Date
	maxUses: number | null
	uses: Generated<number>
	revokedAt: Date | null
	createdBy: string | null
	createdAt: CreatedAt
}

export type Invitation = Selectable<InvitationsTable>
