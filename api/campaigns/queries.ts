import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Campaign, type CampaignStatus, type ChannelKind, recipientStatuses, type RecipientStatus } from '#api/db/schema.ts'

/**
 * Messages a second each provider takes from one sender when nothing says otherwise: Telegram's
 * broadcast limit (about 30 a second per bot), WhatsApp Cloud API's default throughput (80 a second
 * per number), Meta's page messaging kept well under its per-page limits, our own link page at 50, an API channel's callback at 20.
 * A channel's `campaignRatePerSecond` overrides it, and a campaign's `ratePerSecond` overrides both.
 */
export const defaultRatePerSecond: Record<ChannelKind, number> = { telegram: 30, whatsapp: 80, messenger: 20, facebook: 20, instagram: 10, link: 50, api: 20 }

/** A campaign's messages a second: its own rate, else its channel's, else the channel kind's default. */
export function rateOf(campaign: Pick<Campaign, 'ratePerSecond'>, channel: { kind: ChannelKind; campaignRatePerSecond: number | null }): number {
	return campaign.ratePerSecond ?? channel.campaignRatePerSecond ?? defaultRatePerSecond[channel.kind]
}

export type Audience = { workspaceId: string; channelId: string; labelsIn: readonly string[]; labelsOut: readonly string[] }

/**
 * The contacts a campaign reaches: those with any of `labelsIn` (everyone when none), minus those
 * with any of `labelsOut`, minus opted-out contacts and those without an identity on the channel;
 * one identity each (the oldest).
 */
export function audienceQuery(db: DB, audience: Audience) {
	const { workspaceId, channelId, labelsIn, labelsOut } = audience
	let query = db
		.selectFrom('contacts')
		.innerJoin('contactIdentities', (join) => join.onRef('contactIdentities.contactId', '=', 'contacts.id').on('contactIdentities.channelId', '=', channelId))
		.where('contacts.workspaceId', '=', workspaceId)
		.where('contacts.optedOutAt', 'is', null)
	if (labelsIn.length > 0)
		query = query.where(({ exists, selectFrom }) =>
			exists(
				selectFrom('contactLabels')
					.select('contactLabels.contactId')
					.whereRef('contactLabels.contactId', '=', 'contacts.id')
					.where('contactLabels.labelId', 'in', [...labelsIn]),
			),
		)
	if (labelsOut.length > 0)
		query = query.where(({ not, exists, selectFrom }) =>
			not(
				exists(
					selectFrom('contactLabels')
						.select('contactLabels.contactId')
						.whereRef('contactLabels.contactId', '=', 'contacts.id')
						.where('contactLabels.labelId', 'in', [...labelsOut]),
				),
			),
		)
	return query
}

/** How many contacts an audience reaches and the first of them by name (`…/campaigns/audience`). */
export type AudienceJson = { count: number; recipients: Array<{ contactId: string; name: string }> }

/** A page of a campaign's recipients (`…/campaigns/{id}/recipients`). */
export type RecipientPageJson = {
	recipients: Array<{ contactId: string; name: string; status: RecipientStatus; reason: string | null; sentAt: string | null; updatedAt: string }>
	total: number
	page: number
	limit: number
}

/** The message as one contact of the audience would read it (`…/campaigns/{id}/message-preview`). */
export type MessagePreviewJson = { contactId: string; name: string; body: string }

/** How many contacts the audience reaches and the first of them by name: nothing is sent. */
export async function previewAudience(db: DB, audience: Audience, first = 10): Promise<AudienceJson> {
	const [count, recipients] = await Promise.all([
		audienceQuery(db, audience)
			.select(sql<number>`count(distinct contacts.id)::int`.as('count'))
			.executeTakeFirstOrThrow(),
		audienceQuery(db, audience)
			.select(['contacts.id', 'contacts.name', 'contacts.nameKey'])
			.distinct()
			.orderBy('contacts.nameKey')
			.orderBy('contacts.id')
			.limit(first)
			.execute(),
	])
	return { count: count.count, recipients: recipients.map(({ id, name }) => ({ contactId: id, name })) }
}

/** What a variable may read of a contact. */
export type ContactFields = { name: string; company: string | null; email: string | null; phone: string | null; attributes: Record<string, string> }

const variable = /\{\{\s*([\p{L}\p{N}_.-]+)\s*(?:\|([^}]*))?\}\}/gu

/**
 * The message for one contact: `{{name}}`, `{{company}}`, `{{email}}`, `{{phone}}` and any custom
 * attribute (`{{plan}}` or `{{attributes.plan}}`), each with an optional fallback after a bar
 * (`{{company | your team}}`) used when the contact has no value.
 */
export function renderMessage(text: string, contact: ContactFields): string {
	return text.replace(variable, (_, name: string, fallback: string | undefined) => {
		const key = name.startsWith('attributes.') ? name.slice('attributes.'.length) : name
		const builtIn: Record<string, string | null> = { name: contact.name, company: contact.company, email: contact.email, phone: contact.phone }
		// Own keys only: `{{toString}}` names no field, though every object has one.
		const from = Object.hasOwn(builtIn, key) && !name.startsWith('attributes.') ? builtIn : contact.attributes
		const value: unknown = Object.hasOwn(from, key) ? from[key] : undefined
		return typeof value === 'string' && value.trim() ? value : (fallback ?? '').trim()
	})
}

export type RecipientTotals = Record<RecipientStatus, number>

/** How many recipients of each campaign are in each state. */
export async function totalsOf(db: DB, campaignIds: readonly string[]): Promise<Map<string, RecipientTotals>> {
	const totals = new Map<string, RecipientTotals>()
	if (campaignIds.length === 0) return totals
	const rows = await db
		.selectFrom('campaignRecipients')
		.select(['campaignId', 'status', sql<number>`count(*)::int`.as('count')])
		.where('campaignId', 'in', [...campaignIds])
		.groupBy(['campaignId', 'status'])
		.execute()
	for (const id of campaignIds) totals.set(id, Object.fromEntries(recipientStatuses.map((status) => [status, 0])) as RecipientTotals)
	for (const row of rows) totals.get(row.campaignId)![row.status] = row.count
	return totals
}

export type CampaignJson = {
	id: string
	name: string
	channelId: string
	channelKind: ChannelKind
	channelName: string
	labelsIn: string[]
	labelsOut: string[]
	body: string
	template: Campaign['template']
	scheduledAt: string | null
	status: CampaignStatus
	statusDetail: string | null
	ratePerSecond: number
	recipientCount: number
	/** The contacts it reaches: before it starts (draft, scheduled) its audience counted now, as `…/audience` counts it; then its recipients. */
	audienceCount: number
	totals: RecipientTotals
	/** Recipients whose send is over (anything but queued and sending), out of `recipientCount`. */
	processed: number
	startedAt: string | null
	finishedAt: string | null
	createdAt: string
	updatedAt: string
}

type CampaignRow = Campaign & { channelKind: ChannelKind; channelName: string; channelRatePerSecond: number | null }

export function campaignJson(campaign: CampaignRow, totals: RecipientTotals, audienceCount = campaign.recipientCount): CampaignJson {
	return {
		id: campaign.id,
		name: campaign.name,
		channelId: campaign.channelId,
		channelKind: campaign.channelKind,
		channelName: campaign.channelName,
		labelsIn: campaign.labelsIn,
		labelsOut: campaign.labelsOut,
		body: campaign.body,
		template: campaign.template,
		scheduledAt: campaign.scheduledAt?.toISOString() ?? null,
		status: campaign.status,
		statusDetail: campaign.statusDetail,
		ratePerSecond: rateOf(campaign, { kind: campaign.channelKind, campaignRatePerSecond: campaign.channelRatePerSecond }),
		recipientCount: campaign.recipientCount,
		audienceCount,
		totals,
		processed: campaign.recipientCount - totals.queued - totals.sending,
		startedAt: campaign.startedAt?.toISOString() ?? null,
		finishedAt: campaign.finishedAt?.toISOString() ?? null,
		createdAt: campaign.createdAt.toISOString(),
		updatedAt: campaign.updatedAt.toISOString(),
	}
}

function campaignRows(db: DB, workspaceId: string) {
	return db
		.selectFrom('campaigns')
		.innerJoin('channels', 'channels.id', 'campaigns.channelId')
		.selectAll('campaigns')
		.select(['channels.kind as channelKind', 'channels.name as channelName', 'channels.campaignRatePerSecond as channelRatePerSecond'])
		.where('campaigns.workspaceId', '=', workspaceId)
}

/** How many contacts each campaign that has not started (draft, scheduled) would reach now: its recipients are written only at its start. */
async function audienceCounts(db: DB, rows: readonly CampaignRow[]): Promise<Map<string, number>> {
	const waiting = rows.filter((row) => row.status === 'draft' || row.status === 'scheduled')
	const counts = await Promise.all(
		waiting.map((row) =>
			audienceQuery(db, { workspaceId: row.workspaceId, channelId: row.channelId, labelsIn: row.labelsIn, labelsOut: row.labelsOut })
				.select(sql<number>`count(distinct contacts.id)::int`.as('count'))
				.executeTakeFirstOrThrow(),
		),
	)
	return new Map(waiting.map((row, index) => [row.id, counts[index]!.count]))
}

async function withCounts(db: DB, rows: CampaignRow[]): Promise<CampaignJson[]> {
	const [totals, audiences] = await Promise.all([
		totalsOf(
			db,
			rows.map((row) => row.id),
		),
		audienceCounts(db, rows),
	])
	return rows.map((row) => campaignJson(row, totals.get(row.id)!, audiences.get(row.id)))
}

export async function listCampaigns(db: DB, workspaceId: string): Promise<CampaignJson[]> {
	return withCounts(db, await campaignRows(db, workspaceId).orderBy('campaigns.createdAt', 'desc').orderBy('campaigns.id').execute())
}

export async function findCampaign(db: DB, workspaceId: string, campaignId: string): Promise<CampaignJson | undefined> {
	return (await campaignsById(db, workspaceId, [campaignId])).get(campaignId)
}

/** The workspace's campaigns of `ids`, by id. */
export async function campaignsById(db: DB, workspaceId: string, ids: string[]): Promise<Map<string, CampaignJson>> {
	if (ids.length === 0) return new Map()
	const rows = await campaignRows(db, workspaceId).where('campaigns.id', 'in', ids).execute()
	return new Map((await withCounts(db, rows)).map((campaign) => [campaign.id, campaign]))
}

/** The UTC offset of `zone` at `instant`, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		})
			.formatToParts(instant)
			.map((part) => [part.type, Number(part.value)]),
	) as Record<string, number>
	const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
	return asUtc - Math.floor(instant / 1000) * 1000
}

/** A `datetime-local` value read as a wall-clock time of `zone` (an instant with an offset is taken as is). */
export function instantIn(value: string, zone: string): Date {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value)
	if (!match) return new Date(value)
	const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number]
	if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return new Date(Number.NaN)
	const wall = Date.UTC(year, month - 1, day, hour, minute, second)
	// Twice: the offset at the first guess may differ from the offset at the answer around a change of time.
	let guess = wall - offsetAt(wall, zone)
	guess = wall - offsetAt(guess, zone)
	return new Date(guess)
}

/**
 * The campaigns whose totals a batch of message events moved (the triggers of migration 0018): a
 * campaign message's delivery, or a customer's answer in a conversation a campaign message went to.
 * Their pages reload on `campaign.updated`, and hear nothing of the workspace's other messages.
 */
export async function campaignsMovedBy(
	db: DB,
	messageIds: string[],
	answeredConversationIds: string[],
): Promise<Array<{ workspaceId: string; campaignId: string }>> {
	if (messageIds.length === 0 && answeredConversationIds.length === 0) return []
	return (
		db
			.selectFrom('campaignRecipients')
			.select(['workspaceId', 'campaignId'])
			.distinct()
			// Moved just now, by these events: an answer in a conversation that replied long ago moves nothing.
			.where('campaignRecipients.updatedAt', '>=', sql<Date>`now() - interval '1 minute'`)
			.where((where) =>
				where.or([
					...(messageIds.length ? [where('campaignRecipients.messageId', 'in', messageIds)] : []),
					...(answeredConversationIds.length
						? [where.and([where('campaignRecipients.conversationId', 'in', answeredConversationIds), where('campaignRecipients.status', '=', 'replied')])]
						: []),
				]),
			)
			.execute()
	)
}
