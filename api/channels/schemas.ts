import { z } from 'zod'
import { channelKinds } from '#api/db/schema.ts'
import { autoRepliesSchema } from '#common/auto-replies.ts'
import { businessHoursSchema } from '#common/business-hours.ts'

export const limits = { name: 80, slug: 50, greeting: 500, campaignRate: 1000, callbackUrl: 2000 }

/** A link page's address `/{lang}/c/{slug}`: lower-case letters, digits and single hyphens between them. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

const name = z.string().trim().min(1).max(limits.name)
/** Messages a second for the channel's campaigns that set none; null: the kind's default. */
const campaignRatePerSecond = z.number().int().min(1).max(limits.campaignRate).nullable()
const slug = z.string().trim().toLowerCase().min(3).max(limits.slug).regex(slugPattern, 'channels:validation.slug')
/** The team the channel's new conversations go to (one of the workspace's); null: none. */
const teamId = z.string().uuid().nullable()
/** Asks the customer to rate a conversation once it is resolved. */
const csatEnabled = z.boolean()
/** Issue 31: the channel's own business hours (null: the workspace's), and its away message and greeting (each given whole). */
const autoReplyFields = {
	businessHours: businessHoursSchema.nullable().optional(),
	autoReplies: autoRepliesSchema.partial().optional(),
}

/** What a link channel's page shows and asks, kept in the channel's `settings`. */
export const linkSettingsSchema = z
	.object({
		greeting: z.string().trim().max(limits.greeting),
		askName: z.boolean(),
		askEmail: z.boolean(),
	})
	.strict()

export type LinkSettings = z.output<typeof linkSettingsSchema>

export const defaultLinkSettings: LinkSettings = { greeting: '', askName: false, askEmail: false }

/** Only the kind, read first: a kind of a later issue is refused (422) before its other fields are looked at. */
export const channelKindBody = z.object({ kind: z.enum(channelKinds) })

export const createLinkChannelBody = z
	.object({
		kind: z.literal('link'),
		name,
		slug: slug.optional(),
		enabled: z.boolean().optional(),
		settings: linkSettingsSchema.partial().optional(),
		teamId: teamId.optional(),
	})
	.strict()

export const updateLinkChannelBody = z
	.object({
		name: name.optional(),
		slug: slug.optional(),
		enabled: z.boolean().optional(),
		settings: linkSettingsSchema.partial().optional(),
		campaignRatePerSecond: campaignRatePerSecond.optional(),
		teamId: teamId.optional(),
		csatEnabled: csatEnabled.optional(),
		...autoReplyFields,
	})
	.strict()

/** A messaging channel's own fields: its credentials are replaced by connecting again. */
export const updateMessagingChannelBody = z
	.object({
		name: name.optional(),
		enabled: z.boolean().optional(),
		campaignRatePerSecond: campaignRatePerSecond.optional(),
		teamId: teamId.optional(),
		csatEnabled: csatEnabled.optional(),
		...autoReplyFields,
	})
	.strict()

/** An API channel's callback: where the team's replies are posted, signed (an https address, checked again by checkOutboundUrl). */
export const callbackUrl = z.string().trim().max(limits.callbackUrl).url('channels:api.validation.callbackUrl')

/** An API channel (issue 33): no provider nor credentials, only where its replies go. */
export const createApiChannelBody = z
	.object({
		kind: z.literal('api'),
		name,
		enabled: z.boolean().optional(),
		teamId: teamId.optional(),
		settings: z.object({ callbackUrl }).strict(),
	})
	.strict()

/** An API channel's own fields, as a messaging channel's, and its callback. */
export const updateApiChannelBody = updateMessagingChannelBody.extend({ settings: z.object({ callbackUrl }).strict().optional() }).strict()

/** A Bot API token as @BotFather gives it: the bot's id, a colon, then 35 letters, digits, - or _. */
export const botTokenPattern = /^\d{5,}:[A-Za-z0-9_-]{20,}$/

const telegramCredentials = z.object({ botToken: z.string().trim().regex(botTokenPattern, 'channels:validation.botToken') }).strict()

export const createTelegramChannelBody = z
	.object({
		kind: z.literal('telegram'),
		name,
		enabled: z.boolean().optional(),
		teamId: teamId.optional(),
		credentials: telegramCredentials,
	})
	.strict()

const graphId = z
	.string()
	.trim()
	.regex(/^\d{5,20}$/, 'channels:validation.graphId')
const secret = z.string().trim().min(8).max(512)

/** Meta's secrets: a token, the app secret that signs webhooks, and the verify token (generated when left empty). */
const metaCredentials = z
	.object({
		accessToken: secret,
		appSecret: secret,
		verifyToken: z
			.string()
			.trim()
			.max(200)
			.regex(/^[A-Za-z0-9_-]*$/, 'channels:validation.verifyToken')
			.optional(),
	})
	.strict()

/** A WhatsApp Cloud API number: its ids from Meta's App Dashboard. */
export const createWhatsAppChannelBody = z
	.object({
		kind: z.literal('whatsapp'),
		name,
		enabled: z.boolean().optional(),
		teamId: teamId.optional(),
		settings: z.object({ phoneNumberId: graphId, businessAccountId: graphId }).strict(),
		credentials: metaCredentials,
	})
	.strict()

/** The channels of a Facebook Page's Messenger Platform. */
export const pageKinds = ['messenger', 'facebook', 'instagram'] as const

/** A Facebook Page (for Instagram, the page its professional account is linked to): its id, and the page access token. */
export const createPageChannelBody = z
	.object({
		kind: z.enum(pageKinds),
		name,
		enabled: z.boolean().optional(),
		teamId: teamId.optional(),
		settings: z.object({ pageId: graphId }).strict(),
		credentials: metaCredentials,
	})
	.strict()

/** Each messaging kind's credentials, and the one a provider's refusal is shown beside. */
export const credentialsOf = {
	telegram: { schema: telegramCredentials, refusedField: 'botToken' },
	whatsapp: { schema: metaCredentials, refusedField: 'accessToken' },
	messenger: { schema: metaCredentials, refusedField: 'accessToken' },
	facebook: { schema: metaCredentials, refusedField: 'accessToken' },
	instagram: { schema: metaCredentials, refusedField: 'accessToken' },
} as const

/** New values for some of a channel's credentials (a renewed token, a rotated app secret); the others are kept. */
export function replaceCredentialsBody(kind: keyof typeof credentialsOf) {
	const given = (credentialsOf[kind].schema as z.AnyZodObject).partial() as z.ZodType<Partial<Record<string, string>>>
	return z.object({ credentials: given.refine((values) => Object.values(values).some(Boolean), 'channels:validation.noCredentials') }).strict()
}

export const channelParams = z.object({ id: z.string().uuid(), channelId: z.string().uuid() })
