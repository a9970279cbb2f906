import { z } from 'zod'
import { locales, type Locale } from '#locales/languages.ts'

/**
 * A channel's auto-replies (issue 31): the away message, sent to the customer's first message of a
 * closed period, and the greeting, sent to the first message of a new conversation. Each has one
 * text and, optionally, its translations by locale: the customer's language where the channel
 * knows it (the chat link's page), else the workspace's default, else the text. Read by the API
 * and the channel's settings page.
 */

export const autoReplyLimits = { text: 1000 } as const

const text = z.string().trim().max(autoReplyLimits.text)

export const autoReplySchema = z
	.object({
		enabled: z.boolean(),
		text,
		translations: z.record(z.enum(locales), text).default({}),
	})
	.strict()
	.refine((reply) => !reply.enabled || reply.text.length > 0, { message: 'businessHours:errors.textRequired', path: ['text'] })

export const autoRepliesSchema = z.object({ away: autoReplySchema, greeting: autoReplySchema }).strict()

export type AutoReply = z.output<typeof autoReplySchema>
export type AutoReplies = z.output<typeof autoRepliesSchema>

const off: AutoReply = { enabled: false, text: '', translations: {} }
export const defaultAutoReplies: AutoReplies = { away: off, greeting: off }

/** A channel's stored auto-replies with defaults for what it has not set. */
export const autoRepliesOf = (stored: Partial<AutoReplies> | null | undefined): AutoReplies => ({ ...defaultAutoReplies, ...stored })

/** The reply's words for a customer: in their locale when known and translated, else the workspace's default locale's, else its text. */
export function replyText(reply: AutoReply, customerLocale: Locale | null | undefined, workspaceLocale: string): string {
	const translations = reply.translations as Partial<Record<string, string>>
	return translations[customerLocale ?? workspaceLocale]?.trim() || reply.text
}
