import { z } from 'zod'
import { filled } from '#app/utils/forms.ts'

// The API checks the address (https, reachable, not a private network) and words its messages; the form asks only that it is there.
const callbackUrl = z.string({ required_error: 'forms.required' }).trim()

/** An API channel's form on the create page: its name and where its replies go. */
export const apiChannelSchema = z.object({ kind: z.literal('api'), name: filled, callbackUrl })

/** An API channel's callback on its own page. */
export const apiCallbackSchema = z.object({ intent: z.literal('callback'), callbackUrl })

export type ApiChannelValue = z.output<typeof apiChannelSchema>
