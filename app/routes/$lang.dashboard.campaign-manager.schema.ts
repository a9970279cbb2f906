import { z } from 'zod'

const labelIds = z.array(z.string()).default([])

/** The campaign form's rules, as the API checks them; template fields are for WhatsApp. */
export const campaignSchema = z.object({
	campaignId: z.string().optional(),
	name: z.string({ required_error: 'forms.required' }).trim().max(100, 'forms.tooLong'),
	channelId: z.string({ required_error: 'forms.required' }),
	labelsIn: labelIds,
	labelsOut: labelIds,
	body: z.string().trim().max(4096, 'forms.tooLong').optional(),
	templateName: z.string().trim().max(512, 'forms.tooLong').optional(),
	templateLanguage: z.string().trim().max(15, 'forms.tooLong').optional(),
	templateParameters: z.string().trim().max(20_000, 'forms.tooLong').optional(),
	scheduledAt: z.string().trim().optional(),
	ratePerSecond: z.number().int().min(1, 'campaigns.rateRule').max(1000, 'campaigns.rateRule').optional(),
})

export type CampaignForm = z.output<typeof campaignSchema>

/** What the API is sent for the form's values. */
export function campaignBody(form: CampaignForm) {
	const template = form.templateName
		? {
				name: form.templateName,
				language: form.templateLanguage ?? '',
				parameters: (form.templateParameters ?? '')
					.split('\n')
					.map((line) => line.trim())
					.filter(Boolean),
			}
		: null
	return {
		name: form.name,
		channelId: form.channelId,
		labelsIn: form.labelsIn,
		labelsOut: form.labelsOut,
		body: form.body ?? '',
		template,
		scheduledAt: form.scheduledAt || null,
		ratePerSecond: form.ratePerSecond ?? null,
	}
}
