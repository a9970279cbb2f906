import { type AudienceJson, type MessagePreviewJson, type RecipientPageJson } from '#app/.server/api.ts'

/** A campaign recipient's states, in the order the page lists them. */
export const recipientStatuses = ['queued', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped'] as const
export type RecipientStatus = (typeof recipientStatuses)[number]

// The API's answers as the campaign page's route, action and components name them.
export type RecipientJson = RecipientPageJson['recipients'][number]
export type Audience = AudienceJson
export type Preview = MessagePreviewJson
