/**
 * What the API, the web app and the service worker agree on about notifications (issue 32,
 * docs/decisions/025-notifications.md): the kinds, the media, the defaults of the preferences,
 * and the shapes the API answers. No dependencies.
 */

export const notificationKinds = [
	'assigned',
	'mentioned',
	'message',
	'queueWaiting',
	'replyWaiting',
	'campaignDone',
	'campaignFailed',
	'channelDisconnected',
] as const
export type NotificationKind = (typeof notificationKinds)[number]

export const notificationMedia = ['app', 'email', 'push'] as const
export type NotificationMedium = (typeof notificationMedia)[number]

/** What a member gets when they changed nothing: everything in the app, the urgent by e-mail, their own conversations by push. */
const defaultsOn: Record<NotificationMedium, readonly NotificationKind[]> = {
	app: notificationKinds,
	email: ['assigned', 'mentioned', 'queueWaiting', 'channelDisconnected'],
	push: ['assigned', 'mentioned', 'message'],
}
export const notificationDefault = (kind: NotificationKind, medium: NotificationMedium) => defaultsOn[medium].includes(kind)

/** A member's choice for a kind in a medium: their stored row (only differences are stored), else the default. */
export const chosenPreference = (
	stored: ReadonlyArray<{ kind: NotificationKind; medium: NotificationMedium; enabled: boolean }>,
	kind: NotificationKind,
	medium: NotificationMedium,
) => stored.find((row) => row.kind === kind && row.medium === medium)?.enabled ?? notificationDefault(kind, medium)

/** Who may be told of a kind: a channel's disconnection is for owners and admins (they alone can reconnect it). */
export const kindsForRole = (role: 'owner' | 'admin' | 'agent'): readonly NotificationKind[] =>
	role === 'agent' ? notificationKinds.filter((kind) => kind !== 'channelDisconnected') : notificationKinds

/** A member's preferences: every kind × medium, defaults filled in. */
export type NotificationPreferences = Record<NotificationKind, Record<NotificationMedium, boolean>>

/**
 * What a notification's words say (the `notifications` namespace's `kinds.{kind}` with these values):
 * user-written values (names) are isolated by the reader (bidi), numbers are numbers.
 */
export type NotificationValues = {
	number?: number
	contact?: string
	actor?: string
	excerpt?: string
	/** New customer messages gathered in one unread notification. */
	count?: number
	team?: string
	minutes?: number
	campaign?: string
	sent?: number
	failed?: number
	channel?: string
}

/** A notification as the API answers it. */
export type NotificationJson = {
	id: string
	kind: NotificationKind
	values: NotificationValues
	/** What it links to: a conversation by its number, a campaign or a channel by id. */
	conversationNumber: number | null
	campaignId: string | null
	channelId: string | null
	createdAt: string
	readAt: string | null
}

export type NotificationPage = { notifications: NotificationJson[]; unread: number; nextCursor: string | null }

/** The personal channel's `notification` event: the new row and the member's unread count in its workspace. */
export type NotificationEventData = { workspaceId: string; notification: NotificationJson; unread: number }
/** The personal channel's `notifications.read` event: some (or all) were read elsewhere; the count is the new one. */
export type NotificationsReadEventData = { workspaceId: string; unread: number }
export const notificationEvent = 'notification'
export const notificationsReadEvent = 'notifications.read'

/** Minutes a wait lasts before someone is told: a team's queue (`notifyAfter`), a customer's reply (`replyWaitingAfter`). */
export const waitMinutesLimits = { min: 1, max: 1440 } as const

/** Unicode's first-strong isolate: a name in another script does not reorder the sentence around it (mail, push, titles). */
export const isolate = (text: string) => `\u2068${text}\u2069`
