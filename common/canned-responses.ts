/**
 * A canned response's limits, as the API checks them and the settings page's form does before it:
 * a short code of one word (letters of any script, digits, `-`, `_`), a text as long as a message.
 */
export const cannedLimits = { shortCode: 32, content: 4096, search: 100 } as const
