import { z } from 'zod'
import { recipientStatuses } from '#api/db/schema.ts'
import { paginationQuery } from '#api/http/pagination.ts'

export const limits = { name: 100, body: 4096, labels: 50, parameter: 1000, parameters: 20, rate: 1000 }

const labelIds = z.array(z.string().uuid()).max(limits.labels)

/** A date and time as a form's `datetime-local` gives it (read in the workspace's time zone), or an instant with its offset. */
export const localDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/
const scheduledAt = z
	.string()
	.trim()
	.refine((value) => value === '' || localDateTime.test(value) || !Number.isNaN(Date.parse(value)), 'campaigns:validation.scheduledAt')
	.nullish()
	.transform((value) => value || null)

const template = z
	.object({
		name: z.string().trim().min(1).max(512),
		language: z.string().trim().min(2).max(15),
		parameters: z.array(z.string().trim().min(1).max(limits.parameter)).max(limits.parameters).default([]),
	})
	.strict()

const fields = {
	name: z.string().trim().min(1).max(limits.name),
	channelId: z.string().uuid(),
	labelsIn: labelIds.default([]),
	labelsOut: labelIds.default([]),
	body: z.string().trim().max(limits.body).default(''),
	template: template.nullish().transform((value) => value ?? null),
	scheduledAt,
	ratePerSecond: z
		.number()
		.int()
		.min(1)
		.max(limits.rate)
		.nullish()
		.transform((value) => value ?? null),
}

export const createCampaignBody = z.object(fields).strict()
export const updateCampaignBody = z.object(fields).partial().strict()
export type CampaignInput = z.output<typeof createCampaignBody>

export const audienceBody = z.object({ channelId: fields.channelId, labelsIn: fields.labelsIn, labelsOut: fields.labelsOut }).strict()

export const campaignParams = z.object({ id: z.string().uuid(), campaignId: z.string().uuid() })

export const recipientsQuery = paginationQuery
	.extend({ status: z.enum(recipientStatuses).optional(), format: z.enum(['json', 'csv']).default('json') })
	.strict()

export const messagePreviewQuery = z.object({ contactId: z.string().uuid().optional() }).strict()
