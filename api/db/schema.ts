import { type ColumnType, type Generated, type Insertable, type Selectable, type Updateable } from 'kysely'
import { type TokenKind, type TokenScope } from '#common/access-tokens.ts'
import { type AutomationAction, type AutomationCondition, type AutomationEvent, type AutomationOutcome } from '#common/automation.ts'
import { type AutoReplies } from '#common/auto-replies.ts'
import { type BusinessHours } from '#common/business-hours.ts'
import { type NotificationKind, type NotificationMedium, type NotificationValues } from '#common/notifications.ts'
import { type InvitedRole, type Role } from '#common/roles.ts'
import { type WebhookDeliveryEventType, type WebhookDeliveryStatus, type WebhookEventType } from '#common/webhooks.ts'

type CreatedAt = ColumnType<Date, Date | string | undefined, never>
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>

export { invitedRoles, roles, type InvitedRole, type Role } from '#common/roles.ts'
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
	/** The TOTP secret, sealed under ENCRYPTION_KEY (api/channels/crypto.ts); set at set-up, before it is confirmed. */
	twoFactorSecret: string | null
	/** When two-step sign-in was confirmed; null while it is off. */
	twoFactorEnabledAt: Date | null
	/** The last 30-second step a code was accepted for (no code works twice). */
	twoFactorLastStep: number | null
	/** A sound with each new notification in the app (migration 0038). */
	notificationSound: Generated<boolean>
	/** A bot token's own user (migration 0039): never signs in, never a member; the author of what its token does. */
	bot: Generated<boolean>
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
	/** Members must have two-step sign-in on to use the workspace (its owner's choice). */
	requireTwoFactor: Generated<boolean>
	/** Where local phone numbers are from (ISO 3166 alpha-2); null: the country of `timezone`. */
	country: string | null
	/** Open conversations an agent takes at most, unless their own capacity says otherwise; null: no limit (migration 0030). */
	defaultCapacity: number | null
	/** A reopened conversation whose assignee is not available: kept by them, or assigned again. */
	reopenAssignment: Generated<ReopenAssignment>
	/** Agents see only their teams' conversations (and those assigned to them). */
	agentsSeeOwnTeams: Generated<boolean>
	/** Its business hours in its time zone (migration 0034); null: always open. */
	businessHours: ColumnType<BusinessHours | null, BusinessHours | null | undefined, BusinessHours | null>
	/** Minutes a customer's message waits for a reply before its assignee is told (migration 0038). */
	replyWaitingAfter: Generated<number>
	/** Kept up to date by triggers (migration 0007): never written by the application. */
	contactCount: ColumnType<number, never, never>
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export interface MembersTable {
	workspaceId: string
	userId: string
	role: Role
	availability: Generated<Availability>
	/** Open conversations they take at most; null: the workspace's default. */
	capacity: number | null
	/** When auto-assignment last gave them a conversation: who waited longest goes first among equals. */
	lastAssignedAt: Date | null
	/** The product turned them offline after their last connection closed: they are online again when they come back. */
	offlineByPresence: Generated<boolean>
	/** Since when they have a connection open (the realtime server's presence); null: none. */
	connectedAt: Date | null
	/** The time of the last presence event applied: an older one arriving late changes nothing. */
	presenceAt: Date | null
	/** A tab of the workspace is in front of them until then: no browser push (migration 0038). */
	focusedUntil: Date | null
	createdAt: CreatedAt
}

export const reopenAssignments = ['keep', 'reassign'] as const
export type ReopenAssignment = (typeof reopenAssignments)[number]

export interface SessionsTable {
	id: Generated<string>
	userId: string
	tokenHash: string
	userAgent: string | null
	ip: string | null
	createdAt: CreatedAt
	lastUsedAt: Generated<Date>
	expiresAt: Date
	/** When this session passed a second factor (a code at sign-in, or turning two-step sign-in on); null: a password only. */
	secondFactorAt: ColumnType<Date | null, Date | null | undefined, Date | null>
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
	labels: LabelsTable
	contacts: ContactsTable
	contactLabels: ContactLabelsTable
	contactSearch: ContactSearchTable
	conversationWords: ConversationWordsTable
	cannedResponses: CannedResponsesTable
	teams: TeamsTable
	teamMembers: TeamMembersTable
	queueWaits: QueueWaitsTable
	awayReplies: AwayRepliesTable
	channels: ChannelsTable
	releasedChannelSlugs: ReleasedChannelSlugsTable
	conversationNumbers: ConversationNumbersTable
	workspaceEventNumbers: WorkspaceEventNumbersTable
	contactIdentities: ContactIdentitiesTable
	conversations: ConversationsTable
	conversationLabels: ConversationLabelsTable
	conversationReads: ConversationReadsTable
	messages: MessagesTable
	attachments: AttachmentsTable
	conversationCounts: ConversationCountsTable
	campaigns: CampaignsTable
	campaignRecipients: CampaignRecipientsTable
	reportDays: ReportDaysTable
	reportDirty: ReportDirtyTable
	reportVersions: ReportVersionsTable
	auditEvents: AuditEventsTable
	satisfactionSurveys: SatisfactionSurveysTable
	twoFactorRecoveryCodes: TwoFactorRecoveryCodesTable
	twoFactorChallenges: TwoFactorChallengesTable
	automationRules: AutomationRulesTable
	automationRuns: AutomationRunsTable
	notifications: NotificationsTable
	notificationPreferences: NotificationPreferencesTable
	pushSubscriptions: PushSubscriptionsTable
	webhookSubscriptions: WebhookSubscriptionsTable
	webhookEvents: WebhookEventsTable
	webhookDeliveries: WebhookDeliveriesTable
	accessTokens: AccessTokensTable
}

/** A one-time recovery code, kept as a keyed hash (api/auth/two-factor.ts). */
export interface TwoFactorRecoveryCodesTable {
	id: Generated<string>
	userId: string
	codeHash: string
	usedAt: Date | null
	createdAt: CreatedAt
}

/** The login's second step: a correct password gets this, not a session. */
export interface TwoFactorChallengesTable {
	id: Generated<string>
	userId: string
	tokenHash: string
	expiresAt: Date
	createdAt: CreatedAt
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Workspace = Selectable<WorkspacesTable>
export type Member = Selectable<MembersTable>
export type Session = Selectable<SessionsTable>

export const invitationMethods = ['link', 'email'] as const
export type InvitationMethod = (typeof invitationMethods)[number]

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

export interface LabelsTable {
	id: Generated<string>
	workspaceId: string
	title: string
	description: string | null
	color: string
	/** Kept up to date by triggers (migration 0007): never written by the application. */
	contactCount: ColumnType<number, never, never>
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type Label = Selectable<LabelsTable>

/** A contact; `nameKey` and `searchText` are generated by PostgreSQL from the other columns. */
export interface ContactsTable {
	id: Generated<string>
	workspaceId: string
	name: string
	email: string | null
	/** What a chat-link visitor typed as their e-mail: a claim, never matched nor trusted until an agent merges. */
	unverifiedEmail: Generated<string | null>
	phone: string | null
	company: string | null
	notes: string | null
	attributes: ColumnType<Record<string, string>, Record<string, string> | undefined, Record<string, string>>
	avatarColor: string
	/** When the contact asked for no more campaigns (an opt-out word, migration 0018). */
	optedOutAt: ColumnType<Date | null, Date | null | undefined, Date | null>
	lastActivityAt: ColumnType<Date, Date | string | undefined, Date | string>
	createdAt: CreatedAt
	updatedAt: UpdatedAt
	nameKey: ColumnType<string, never, never>
	searchText: ColumnType<string, never, never>
}

export type Contact = Selectable<ContactsTable>

/** What a search reads of each contact, kept by triggers on `contacts` (migration 0008). */
/** The words of a conversation's messages, kept by a trigger on messages (migration 0013): searched in SQL, never written by the app. */
export interface ConversationWordsTable {
	conversationId: ColumnType<string, never, never>
	workspaceId: ColumnType<string, never, never>
	/** A tsvector. */
	words: ColumnType<string, never, never>
}

export interface ContactSearchTable {
	contactId: ColumnType<string, never, never>
	workspaceId: ColumnType<string, never, never>
	nameKey: ColumnType<string, never, never>
	createdAt: ColumnType<Date, never, never>
	lastActivityAt: ColumnType<Date, never, never>
	searchText: ColumnType<string, never, never>
}

export interface ContactLabelsTable {
	workspaceId: string
	contactId: string
	labelId: string
	createdAt: CreatedAt
}

export interface CannedResponsesTable {
	id: Generated<string>
	workspaceId: string
	shortCode: string
	content: string
	createdBy: string | null
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type CannedResponse = Selectable<CannedResponsesTable>

/** A team of a workspace (migration 0030): its new conversations go to its members, in turn when it auto-assigns. */
export interface TeamsTable {
	id: Generated<string>
	workspaceId: string
	name: string
	description: string | null
	autoAssign: Generated<boolean>
	/** Minutes a conversation waits unassigned in its queue before the team is told (migration 0038). */
	notifyAfter: Generated<number>
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type Team = Selectable<TeamsTable>

/** A conversation's stay in a team's queue, written when it ends: by auto-assignment (`automatic`) or by hand. */
export interface QueueWaitsTable {
	id: Generated<string>
	workspaceId: string
	conversationId: string
	teamId: string | null
	queuedAt: Date
	assignedAt: Date
	automatic: boolean
}

/** A closed period in which a conversation got its away message (migration 0034): once each. */
export interface AwayRepliesTable {
	conversationId: string
	periodStart: Date
	createdAt: CreatedAt
}

export interface TeamMembersTable {
	workspaceId: string
	teamId: string
	userId: string
	createdAt: CreatedAt
}

/** The six kinds of the specification; `link` is the public chat page `/{lang}/c/{slug}`; `api` is fed through `/v1` by an integration (issue 33). */
export const channelKinds = ['whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'link', 'api'] as const
export type ChannelKind = (typeof channelKinds)[number]
export const channelStatuses = ['active', 'error', 'disabled'] as const
export type ChannelStatus = (typeof channelStatuses)[number]

/** A channel. `credentials` (encrypted) and `webhookSecret` never leave the API; `settings` is the kind's own public options. */
export interface ChannelsTable {
	id: Generated<string>
	workspaceId: string
	kind: ChannelKind
	name: string
	slug: string | null
	enabled: Generated<boolean>
	status: Generated<ChannelStatus>
	statusDetail: string | null
	/** When the provider started refusing the channel's token; null while it works. */
	failingSince: Date | null
	/** Messages a second for its campaigns that set none (migration 0019); null: the kind's default. */
	campaignRatePerSecond: ColumnType<number | null, number | null | undefined, number | null>
	/** The team its new conversations go to; null: none. */
	teamId: string | null
	/** Asks the customer to rate a conversation once it is resolved (migration 0035). */
	csatEnabled: Generated<boolean>
	settings: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, Record<string, unknown>>
	/** Its own business hours (migration 0034); null: the workspace's. */
	businessHours: ColumnType<BusinessHours | null, BusinessHours | null | undefined, BusinessHours | null>
	/** Its away message and greeting; null: both off. */
	autoReplies: ColumnType<AutoReplies | null, AutoReplies | null | undefined, AutoReplies | null>
	credentials: string | null
	webhookSecret: string | null
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type Channel = Selectable<ChannelsTable>

/** A slug a link channel gave up, kept for its workspace a while (migration 0026; written by a trigger on channels). */
export interface ReleasedChannelSlugsTable {
	slug: string
	workspaceId: string
	releasedAt: Date
}

/** Who a contact is on a channel: a WhatsApp wa_id, a Telegram chat id, a link visitor's token hash. */
export interface ContactIdentitiesTable {
	id: Generated<string>
	workspaceId: string
	channelId: string
	contactId: string
	externalId: string
	createdAt: CreatedAt
}

export type ContactIdentity = Selectable<ContactIdentitiesTable>

export const conversationStatuses = ['open', 'pending', 'resolved', 'snoozed'] as const
export type ConversationStatus = (typeof conversationStatuses)[number]
/** Stored as their index (0 to 4), so that they sort. */
export const priorities = ['none', 'low', 'medium', 'high', 'urgent'] as const
export type Priority = (typeof priorities)[number]

export interface ConversationsTable {
	id: Generated<string>
	workspaceId: string
	number: number
	contactId: string
	channelId: string
	identityId: string | null
	status: Generated<ConversationStatus>
	snoozedUntil: Date | null
	assigneeId: string | null
	/** Its team; null: none. */
	teamId: string | null
	/** Waiting in its team's queue since then: nobody had room when it came or reopened; null: not waiting. */
	queuedAt: Date | null
	/** 0 none … 4 urgent: the index in `priorities`. */
	priority: Generated<number>
	/** Incoming messages so far; a member's unread count is this minus their `conversationReads.seenCount`. */
	incomingCount: Generated<number>
	lastMessageId: string | null
	lastMessageExcerpt: string | null
	lastMessageDirection: MessageDirection | null
	lastActivityAt: ColumnType<Date, Date | string | undefined, Date | string>
	firstResponseAt: Date | null
	/** When a rule muted its notifications (migration 0033); null: not muted. */
	mutedAt: ColumnType<Date | null, Date | null | undefined, Date | null>
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type Conversation = Selectable<ConversationsTable>

/** The last number given to a conversation of the workspace. */
export interface ConversationNumbersTable {
	workspaceId: string
	lastNumber: number
}

/** The last number of each workspace channel's events (migration 0029). */
export interface WorkspaceEventNumbersTable {
	workspaceId: string
	lastNumber: number
}

export interface ConversationLabelsTable {
	workspaceId: string
	conversationId: string
	labelId: string
	createdAt: CreatedAt
}

export interface ConversationReadsTable {
	conversationId: string
	userId: string
	seenCount: number
	seenAt: ColumnType<Date, Date | string | undefined, Date | string>
}

export const messageDirections = ['incoming', 'outgoing'] as const
export type MessageDirection = (typeof messageDirections)[number]
/** `note`: private, members only, never sent to the customer; `activity`: a translated line of what happened. */
export const messageKinds = ['text', 'note', 'activity'] as const
export type MessageKind = (typeof messageKinds)[number]
export const deliveryStatuses = ['pending', 'sent', 'delivered', 'read', 'failed'] as const
export type DeliveryStatus = (typeof deliveryStatuses)[number]
/** An activity line: a key of the `inbox` namespace and its values, translated when read. */
export type Activity = { key: string; values: Record<string, string> }

export type MessageTemplateUse = { name: string; language: string; parameters: string[] }

export interface MessagesTable {
	/** bigint in creation order, as a string: the thread pages by it. */
	id: ColumnType<string, never, never>
	workspaceId: string
	conversationId: string
	channelId: string
	direction: MessageDirection
	kind: MessageKind
	body: Generated<string>
	activity: ColumnType<Activity | null, Activity | null | undefined, Activity | null>
	/** A reply sent as an approved template (migration 0014). */
	template: ColumnType<MessageTemplateUse | null, MessageTemplateUse | null | undefined, MessageTemplateUse | null>
	senderId: string | null
	status: DeliveryStatus | null
	error: string | null
	externalId: string | null
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type Message = Selectable<MessagesTable>

export const attachmentKinds = ['image', 'audio', 'video', 'file'] as const
export type AttachmentKind = (typeof attachmentKinds)[number]
/** `too-large`: over UPLOAD_MAX_BYTES, kept as a note; `failed`: the provider would not give the file. */
export type AttachmentStatus = 'stored' | 'too-large' | 'failed'

/** A file attached to a message (migration 0017); its bytes are in the storage under `storageKey`. */
export interface AttachmentsTable {
	id: Generated<string>
	workspaceId: string
	messageId: string
	kind: AttachmentKind
	/** The name the sender gave it, shown and offered on download; never a path on disk. */
	filename: string
	contentType: string
	size: number | null
	status: Generated<AttachmentStatus>
	storageKey: string | null
	createdAt: CreatedAt
}

export type Attachment = Selectable<AttachmentsTable>

/** How many conversations of a workspace each assignee (the nil uuid: nobody) has per status, kept by triggers (migration 0011). */
export interface ConversationCountsTable {
	workspaceId: ColumnType<string, never, never>
	assigneeKey: ColumnType<string, never, never>
	status: ColumnType<ConversationStatus, never, never>
	count: ColumnType<number, never, never>
}

/** The words of a conversation's messages, kept by a trigger on messages (migration 0013): what the list's search reads. */
export interface ConversationWordsTable {
	conversationId: ColumnType<string, never, never>
	workspaceId: ColumnType<string, never, never>
	words: ColumnType<string, never, never>
}

export const campaignStatuses = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled', 'failed'] as const
export type CampaignStatus = (typeof campaignStatuses)[number]

/** A campaign (migration 0018): one message to the contacts of an audience through one channel. */
export interface CampaignsTable {
	id: Generated<string>
	workspaceId: string
	channelId: string
	name: string
	labelsIn: ColumnType<string[], string[] | undefined, string[]>
	labelsOut: ColumnType<string[], string[] | undefined, string[]>
	body: Generated<string>
	template: ColumnType<MessageTemplateUse | null, MessageTemplateUse | null | undefined, MessageTemplateUse | null>
	scheduledAt: Date | null
	status: Generated<CampaignStatus>
	statusDetail: string | null
	ratePerSecond: number | null
	recipientCount: Generated<number>
	createdBy: string | null
	startedAt: Date | null
	finishedAt: Date | null
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type Campaign = Selectable<CampaignsTable>

export const recipientStatuses = ['queued', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped'] as const
export type RecipientStatus = (typeof recipientStatuses)[number]

/** One contact of a started campaign, once: `sending` is claimed, its outcome not yet recorded. */
export interface CampaignRecipientsTable {
	id: ColumnType<string, never, never>
	campaignId: string
	workspaceId: string
	contactId: string
	identityId: string | null
	status: Generated<RecipientStatus>
	reason: string | null
	attempts: Generated<number>
	conversationId: string | null
	messageId: string | null
	claimedAt: Date | null
	sentAt: Date | null
	updatedAt: UpdatedAt
}

export type CampaignRecipient = Selectable<CampaignRecipientsTable>

/**
 * A day of a workspace's reports per channel, agent, label and team (migrations 0020, 0032); the
 * nil uuid is "none" in each key, and as `labelId` every conversation. Written only by api/reports/rollup.ts.
 */
export interface ReportDaysTable {
	workspaceId: string
	labelId: string
	/** The conversation's current team (none, or `every`: the day's sum over every team). */
	teamId: string
	/** `YYYY-MM-DD` in the workspace's time zone (read as text: a date has no time zone). */
	day: ColumnType<string, string, string>
	channelId: string
	agentId: string
	opened: number
	resolved: number
	messagesIn: number
	messagesOut: number
	firstResponses: number
	/** Counts of first responses per duration bucket (api/reports/buckets.ts). */
	firstResponseBuckets: number[]
	resolutionBuckets: number[]
	/** The same two in business hours (migration 0037): the open time of the channel's hours, else the workspace's. */
	firstResponseBusinessBuckets: ColumnType<number[], number[] | undefined, number[]>
	resolutionBusinessBuckets: ColumnType<number[], number[] | undefined, number[]>
	/** Incoming messages per hour of the day, 0 to 23. */
	incomingHours: number[]
	newContacts: number
	campaignSent: number
	campaignDelivered: number
}

/** Times of a workspace whose roll-ups a change made stale, until the `refresh-reports` job recomputes their days. */
export interface ReportDirtyTable {
	id: ColumnType<string, never, never>
	workspaceId: string
	fromAt: Date
	toAt: Date
}

/** Raised whenever a workspace's roll-ups change (migration 0024); what was read at an older one is stale. bigint: pg gives it as a string. */
export interface ReportVersionsTable {
	workspaceId: string
	version: ColumnType<string, string | number | undefined, string | number>
}

/** One line of a workspace's audit log (migration 0021): `kind` is its translation key under `audit:events`, said with `values`. */
export interface AuditEventsTable {
	id: ColumnType<number, never, never>
	workspaceId: string
	actorId: string | null
	actorName: string
	kind: string
	values: ColumnType<AuditValues, AuditValues | undefined, never>
	createdAt: CreatedAt
}
export type AuditValues = Record<string, string | number>
export type AuditEvent = Selectable<AuditEventsTable>

/** A workspace's automation rule (migration 0033), run in `position` order on its event. */
export interface AutomationRulesTable {
	id: Generated<string>
	workspaceId: string
	name: string
	enabled: Generated<boolean>
	event: AutomationEvent
	match: Generated<'all' | 'any'>
	conditions: ColumnType<AutomationCondition[], string | undefined, string>
	actions: ColumnType<AutomationAction[], string, string>
	stopAfter: Generated<boolean>
	position: number
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}
export type AutomationRule = Selectable<AutomationRulesTable>

/** What an action of a run did; `error` a translation key of the `automation` namespace. */
export type AutomationActionResult = { kind: AutomationAction['kind']; outcome: 'done' | 'failed' | 'skipped'; error?: Activity }

/** One run of a rule on one event (`eventKey`: once per rule). */
export interface AutomationRunsTable {
	id: ColumnType<string, never, never>
	ruleId: string
	workspaceId: string
	conversationId: string | null
	event: AutomationEvent
	eventKey: string
	depth: number
	outcome: AutomationOutcome
	actions: ColumnType<AutomationActionResult[], string | undefined, string>
	error: ColumnType<Activity | null, string | null | undefined, string | null>
	createdAt: CreatedAt
}
export type AutomationRun = Selectable<AutomationRunsTable>
/** `asked` and `rated` (waiting for a comment) are open; `commented` is complete; `closed` ended unanswered, expired, or by a new message or resolution. */
export const surveyStatuses = ['asked', 'rated', 'commented', 'closed'] as const
export type SurveyStatus = (typeof surveyStatuses)[number]

/** A satisfaction survey of one resolution (migration 0035): who had the conversation then, and the customer's answer. */
export interface SatisfactionSurveysTable {
	id: Generated<string>
	workspaceId: string
	conversationId: string
	channelId: string
	contactId: string
	assigneeId: string | null
	teamId: string | null
	/** The question sent on a messaging channel; null on a chat link (its page shows a form). bigint: as a string. */
	questionMessageId: ColumnType<string | null, string | null | undefined, string | null>
	status: Generated<SurveyStatus>
	rating: number | null
	comment: string | null
	askedAt: CreatedAt
	answeredAt: Date | null
	closedAt: Date | null
}

export type SatisfactionSurvey = Selectable<SatisfactionSurveysTable>

/** A member's notification of a workspace (migration 0038), kept 90 days. bigint: as a string. */
export interface NotificationsTable {
	id: Generated<string>
	workspaceId: string
	userId: string
	kind: NotificationKind
	conversationId: string | null
	campaignId: string | null
	channelId: string | null
	values: ColumnType<NotificationValues, NotificationValues | undefined, NotificationValues>
	/** Once per stay in a queue, customer message or failing stretch: unique per user. */
	onceKey: string | null
	/** False: the member turned the kind off in the app; the row serves its mail or push only. */
	inApp: Generated<boolean>
	createdAt: CreatedAt
	readAt: Date | null
	mailedAt: Date | null
	pushedAt: Date | null
}

export type Notification = Selectable<NotificationsTable>

/** A member's choice for a kind in a medium, stored only where it differs from `notificationDefault`. */
export interface NotificationPreferencesTable {
	workspaceId: string
	userId: string
	kind: NotificationKind
	medium: NotificationMedium
	enabled: boolean
}

/** A device's browser push subscription (PushSubscription's endpoint and keys), per user. */
export interface PushSubscriptionsTable {
	id: Generated<string>
	userId: string
	endpoint: string
	p256dh: string
	auth: string
	userAgent: string | null
	createdAt: CreatedAt
	lastSuccessAt: Date | null
}

export type PushSubscription = Selectable<PushSubscriptionsTable>

/** A workspace's outgoing webhook (migration 0040), or an API channel's callback (`channelId`). */
export interface WebhookSubscriptionsTable {
	id: Generated<string>
	workspaceId: string
	channelId: string | null
	url: string
	events: WebhookEventType[]
	enabled: Generated<boolean>
	/** The whsec_… secret, sealed (api/channels/crypto.ts). */
	secret: string
	failingSince: Date | null
	disabledAt: Date | null
	createdBy: string | null
	createdAt: CreatedAt
	updatedAt: UpdatedAt
}

export type WebhookSubscription = Selectable<WebhookSubscriptionsTable>

/** The outbox: a change that a subscription asked for, written by a trigger in its transaction, until the fan-out job takes it. bigint: as a string. */
export interface WebhookEventsTable {
	id: Generated<string>
	workspaceId: string
	type: WebhookEventType
	/** The conversation, contact or campaign whose events arrive in order. */
	orderingKey: string
	subject: ColumnType<WebhookEventSubject, WebhookEventSubject, WebhookEventSubject>
	createdAt: CreatedAt
}

/** The ids an event names, and what a deleted contact was. */
export type WebhookEventSubject = {
	conversationId?: string
	messageId?: string
	contactId?: string
	campaignId?: string
	surveyId?: string
	previousStatus?: string
	previousAssigneeId?: string | null
	contact?: Record<string, unknown>
}

/** One event to one subscription: its body as sent, and how its tries went. bigint: as a string. */
export interface WebhookDeliveriesTable {
	id: Generated<string>
	workspaceId: string
	subscriptionId: string
	eventType: WebhookDeliveryEventType
	webhookId: string
	payload: string
	orderingKey: string
	messageId: string | null
	status: Generated<WebhookDeliveryStatus>
	attempts: Generated<number>
	nextAttemptAt: Date | null
	lastAttemptAt: Date | null
	responseStatus: number | null
	responseBody: string | null
	error: string | null
	createdAt: CreatedAt
	deliveredAt: Date | null
}

export type WebhookDelivery = Selectable<WebhookDeliveriesTable>
/** A personal or bot access token (migration 0039), kept as a hash; `hint` is its last characters, for lists. */
export interface AccessTokensTable {
	id: Generated<string>
	workspaceId: string
	kind: TokenKind
	/** Personal: the member it acts as; bot: the bot's own user. */
	userId: string
	createdBy: string | null
	name: string
	tokenHash: string
	hint: string
	scopes: TokenScope[]
	expiresAt: Date | null
	lastUsedAt: Date | null
	/** The minute its rate limit counts in, and its requests in that minute. */
	windowStartedAt: Date | null
	windowRequests: Generated<number>
	revokedAt: Date | null
	createdAt: CreatedAt
}

export type AccessToken = Selectable<AccessTokensTable>
