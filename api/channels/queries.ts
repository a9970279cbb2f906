import { sql, type Kysely } from 'kysely'
import { type Channel, type ChannelKind, type ChannelStatus, type Database } from '#api/db/schema.ts'
import { autoRepliesOf, type AutoReplies } from '#common/auto-replies.ts'
import { type BusinessHours } from '#common/business-hours.ts'
import { defaultRatePerSecond } from '#api/campaigns/queries.ts'
import { firstFreeSlug, randomSuffixed, slugBase } from '#api/workspaces/slug.ts'
import { defaultLinkSettings, linkSettingsSchema, type LinkSettings } from './schemas.ts'

type Executor = Kysely<Database>

/** A channel as the API answers it: never its credentials nor its webhook secret. */
export type ChannelJson = {
	id: string
	kind: ChannelKind
	name: string
	slug: string | null
	enabled: boolean
	status: ChannelStatus
	statusDetail: string | null
	/** Since when the provider has refused the channel's token (status `error`). */
	failingSince: string | null
	settings: Record<string, unknown>
	/** Messages a second for the channel's campaigns that set none; null: `kindRatePerSecond`. */
	campaignRatePerSecond: number | null
	/** The kind's own default campaign rate, used when the channel sets none. */
	kindRatePerSecond: number
	/** The team the channel's new conversations go to; null: none. */
	teamId: string | null
	/** Asks the customer to rate a conversation once it is resolved. */
	csatEnabled: boolean
	/** Its own business hours (issue 31); null: the workspace's. */
	businessHours: BusinessHours | null
	/** Its away message and greeting. */
	autoReplies: AutoReplies
	createdAt: string
	updatedAt: string
	/** In the list: the customers' and the team's messages since midnight in the workspace's time zone. */
	today?: { incoming: number; outgoing: number }
	/** On a created or read channel, for owners and admins: where the provider posts, and Meta's verify token. */
	webhook?: { url: string; verifyToken: string | null } | null
	/** On a read channel, for owners and admins: each credential's last characters (`••••Wx9z`), to tell which is kept. */
	maskedCredentials?: Record<string, string> | null
	/** On a read API channel, for owners and admins: how its callback's deliveries go (its subscription's state). */
	callback?: { url: string; enabled: boolean; failingSince: string | null; disabledAt: string | null } | null
	/** On a created API channel only: the secret that signs what its callback receives (`whsec_…`), shown this once. */
	secret?: string
}

export const channelSlugConstraint = 'channels_slug_key'

// The public columns only, so that a secret cannot reach an answer by a `selectAll`.
export const publicChannelColumns = [
	'id',
	'workspaceId',
	'kind',
	'name',
	'slug',
	'enabled',
	'status',
	'statusDetail',
	'failingSince',
	'settings',
	'campaignRatePerSecond',
	'teamId',
	'csatEnabled',
	'businessHours',
	'autoReplies',
	'createdAt',
	'updatedAt',
] as const

export type PublicChannel = Pick<Channel, (typeof publicChannelColumns)[number]>

export function channelJson(row: PublicChannel): ChannelJson {
	return {
		id: row.id,
		kind: row.kind,
		name: row.name,
		slug: row.slug,
		enabled: row.enabled,
		status: row.status,
		statusDetail: row.statusDetail,
		failingSince: row.failingSince?.toISOString() ?? null,
		settings: row.kind === 'link' ? linkSettingsOf(row) : row.settings,
		campaignRatePerSecond: row.campaignRatePerSecond,
		kindRatePerSecond: defaultRatePerSecond[row.kind],
		teamId: row.teamId,
		csatEnabled: row.csatEnabled,
		businessHours: row.businessHours,
		autoReplies: autoRepliesOf(row.autoReplies),
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString(),
	}
}

/** A link channel's settings, with defaults for what an older row does not have. */
export function linkSettingsOf(row: Pick<Channel, 'settings'>): LinkSettings {
	// A key of an older version (the away message of migration 0036) is left out, not a reason to drop the rest.
	const parsed = linkSettingsSchema.partial().strip().safeParse(row.settings)
	return { ...defaultLinkSettings, ...(parsed.success ? parsed.data : {}) }
}

export async function listChannels(db: Executor, workspaceId: string): Promise<ChannelJson[]> {
	const [rows, counts] = await Promise.all([
		db.selectFrom('channels').select(publicChannelColumns).where('workspaceId', '=', workspaceId).orderBy('createdAt').orderBy('id').execute(),
		todayCounts(db, workspaceId),
	])
	return rows.map((row) => ({
		...channelJson(row),
		today: { incoming: counts.get(`${row.id} incoming`) ?? 0, outgoing: counts.get(`${row.id} outgoing`) ?? 0 },
	}))
}

/** Text messages in and out since midnight in the workspace's zone, per channel (migration 0015's index). */
async function todayCounts(db: Executor, workspaceId: string): Promise<Map<string, number>> {
	const { rows } = await sql<{ channelId: string; direction: string; count: number }>`
		select messages.channel_id, messages.direction, count(*)::int as count
		from messages
		join channels on channels.id = messages.channel_id
		join workspaces on workspaces.id = channels.workspace_id
		where channels.workspace_id = ${workspaceId}
			and messages.kind = 'text'
			and messages.created_at >= date_trunc('day', now() at time zone workspaces.timezone) at time zone workspaces.timezone
		group by messages.channel_id, messages.direction
	`.execute(db)
	return new Map(rows.map((row) => [`${row.channelId} ${row.direction}`, row.count]))
}

export function findChannel(db: Executor, workspaceId: string, channelId: string): Promise<PublicChannel | undefined> {
	return db.selectFrom('channels').select(publicChannelColumns).where('workspaceId', '=', workspaceId).where('id', '=', channelId).executeTakeFirst()
}

/** How long a link channel's slug stays its workspace's once the channel is deleted or its slug changed (migration 0026). */
export const slugReservedDays = 30

/** The slugs given up within `slugReservedDays` by workspaces other than `workspaceId`: nobody else may take them yet. */
function reservedElsewhere(db: Executor, workspaceId: string) {
	return db
		.selectFrom('releasedChannelSlugs')
		.select('slug')
		.where('workspaceId', '<>', workspaceId)
		.where('releasedAt', '>', sql<Date>`now() - make_interval(days => ${slugReservedDays})`)
}

/** Whether `slug` is another workspace's deleted link's, still reserved to it (the workspace that gave it up may take it back). */
export async function isSlugReserved(db: Executor, slug: string, workspaceId: string): Promise<boolean> {
	return (await reservedElsewhere(db, workspaceId).where('slug', '=', slug).executeTakeFirst()) !== undefined
}

/** A free slug for a channel named `name` (`Café Lumière` → `cafe-lumiere`, then `cafe-lumiere-2`…); `chat-…` for other scripts. */
export async function suggestSlug(db: Executor, name: string, workspaceId: string): Promise<string> {
	const fromName = slugBase(name)
	const base = fromName && fromName.length >= 3 ? fromName : randomSuffixed('chat')
	const rows = await db
		.selectFrom('channels')
		.select('slug')
		.where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
		.union(reservedElsewhere(db, workspaceId).where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)])))
		.execute()
	return firstFreeSlug(base, new Set(rows.map((row) => String(row.slug))))
}
