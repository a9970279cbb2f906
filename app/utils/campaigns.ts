/** A campaign recipient's states, in the order the page lists them. */
export const recipientStatuses = ['queued', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped'] as const
export type RecipientStatus = (typeof recipientStatuses)[number]

// The campaign page's copies of the API's answers, shared by its route, its action and its components.
export type RecipientJson = { contactId: string; name: string; status: RecipientStatus; reason: string | null; sentAt: string | null }
export type Audience = { count: number; recipients: Array<{ contactId: string; name: string }> }
export type Preview = { contactId: string; name: string; body: string }
