import { z } from 'zod'
import { campaignStatuses, channelKinds, recipientStatuses } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type CampaignJson, type previewAudience } from './queries.ts'
import { audienceBody, campaignParams, createCampaignBody, messagePreviewQuery, recipientsQuery, updateCampaignBody } from './schemas.ts'

const campaignAnswer = answerSchema<CampaignJson>()(
	z
		.object({
			id: z.string().uuid(),
			name: z.string(),
			channelId: z.string().uuid(),
			channelKind: z.enum(channelKinds),
			channelName: z.string(),
			labelsIn: z.array(z.string().uuid()),
			labelsOut: z.array(z.string().uuid()),
			body: z.string(),
			template: z.object({ name: z.string(), language: z.string(), parameters: z.array(z.string()) }).nullable(),
			scheduledAt: z.string().datetime().nullable(),
			status: z.enum(campaignStatuses),
			statusDetail: z.string().nullable(),
			ratePerSecond: z.number().int(),
			recipientCount: z.number().int(),
			audienceCount: z.number().int().openapi({
				description:
					'The contacts it reaches: before it starts (draft, scheduled) its audience counted now, as `POST …/audience` counts it; then `recipientCount`.',
			}),
			totals: z.object(
				Object.fromEntries(recipientStatuses.map((status) => [status, z.number().int()])) as Record<(typeof recipientStatuses)[number], z.ZodNumber>,
			),
			processed: z.number().int().openapi({ description: 'Recipients whose send is over (neither queued nor sending), out of `recipientCount`.' }),
			startedAt: z.string().datetime().nullable(),
			finishedAt: z.string().datetime().nullable(),
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
		})
		.openapi('Campaign'),
)

const audienceAnswer = answerSchema<Awaited<ReturnType<typeof previewAudience>>>()(
	z.object({
		count: z.number().int(),
		recipients: z.array(z.object({ contactId: z.string().uuid(), name: z.string() })).openapi({ description: 'The first ten, by name.' }),
	}),
)

/** `/v1/workspaces/{id}/campaigns` (router.ts): owners and admins create, edit, start, pause, resume, cancel and delete; agents read. */
export function documentCampaigns(docs: ApiDocs) {
	const campaign = { description: 'The campaign, with its counts by recipient status.', schema: campaignAnswer }
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The campaigns',
		params: workspaceParams,
		responses: { 200: { description: 'The campaigns.', schema: z.object({ campaigns: z.array(campaignAnswer) }) } },
	})
	docs.add({
		method: 'post',
		path: '/audience',
		summary: 'How many contacts an audience reaches',
		description: 'Nothing is sent nor kept: the count and the first of them.',
		params: workspaceParams,
		body: audienceBody,
		responses: { 200: { description: 'How many contacts, and the first of them.', schema: audienceAnswer } },
		errors: [422],
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a campaign (a draft)',
		description: 'Owners and admins.',
		params: workspaceParams,
		body: createCampaignBody,
		responses: { 201: campaign },
		errors: [403, 422],
	})
	docs.add({ method: 'get', path: '/:campaignId', summary: 'A campaign', params: campaignParams, responses: { 200: campaign } })
	docs.add({
		method: 'patch',
		path: '/:campaignId',
		summary: 'Change a campaign before it starts',
		description: 'Owners and admins. A scheduled campaign that is edited goes back to a draft.',
		params: campaignParams,
		body: updateCampaignBody,
		responses: { 200: campaign },
		errors: [403, 409, 422],
	})
	docs.add({
		method: 'delete',
		path: '/:campaignId',
		summary: 'Delete a campaign that is not running',
		description: 'Owners and admins.',
		params: campaignParams,
		responses: { 204: 'Deleted.' },
		errors: [403, 409],
	})
	const transitions = {
		start: 'Start a draft (now, or at its `scheduledAt`)',
		pause: 'Pause a running campaign',
		resume: 'Resume a paused or failed campaign',
		cancel: 'Cancel a campaign that has not finished',
	}
	for (const [action, summary] of Object.entries(transitions)) {
		docs.add({
			method: 'post',
			path: `/:campaignId/${action}`,
			summary,
			description: 'Owners and admins.',
			params: campaignParams,
			responses: { 200: campaign },
			errors: [403, 409],
		})
	}
	docs.add({
		method: 'get',
		path: '/:campaignId/recipients',
		summary: 'The recipients and what became of each',
		params: campaignParams,
		query: recipientsQuery,
		responses: { 200: { description: '`{ recipients, total, page, limit }`; with `format=csv`, every recipient as CSV instead (`text/csv`).' } },
	})
	docs.add({
		method: 'get',
		path: '/:campaignId/message-preview',
		summary: 'The message as one contact of the audience would read it',
		params: campaignParams,
		query: messagePreviewQuery,
		responses: { 200: '`{ contactId, name, body }`.' },
	})
}
