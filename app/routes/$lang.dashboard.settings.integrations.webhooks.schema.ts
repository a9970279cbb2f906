import { z } from 'zod'
import { webhookEventTypes } from '#common/webhooks.ts'
import { filled, ticked } from '#app/utils/forms.ts'

/** A webhook's form: its address (whether it may be reached is the API's to say), the events ticked, and on or off. */
export const webhookSchema = z.object({
	url: filled.pipe(z.string().min(1, 'forms.required').max(2000, 'forms.tooLong')),
	events: z
		.array(z.enum(webhookEventTypes, { message: 'forms.invalid' }), { required_error: 'webhooks:errors.eventsRequired' })
		.min(1, 'webhooks:errors.eventsRequired'),
	enabled: ticked,
})
