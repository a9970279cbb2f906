import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs } from '@remix-run/node'
import { type CampaignJson } from '#app/.server/api.ts'
import * as campaigns from '#app/.server/campaigns.ts'
import { apiFailure, postedOf, replyInvalid, replyWithApiError, type Posted } from '#app/.server/forms.ts'
import { requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { campaignBody, campaignSchema } from './$lang.dashboard.campaign-manager.schema.ts'

/** What each of the page's forms is given, and the workspace. */
type CampaignPost = Posted & { workspaceId: string }

/** The campaign page's action: a campaign's buttons name their intent, the form names `count` or `save` (or none). */
export async function campaignsAction(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await request.formData()
	const posted: CampaignPost = {
		...(await postedOf(request, formData, { locale, api }, `/${locale}/dashboard/campaign-manager`)),
		workspaceId: user.workspace.id,
	}
	const intent = String(formData.get('intent') ?? 'save')
	switch (intent) {
		case 'start':
		case 'pause':
		case 'resume':
		case 'cancel':
			return changeStatus(posted, intent)
		case 'delete':
			return deleteCampaign(posted)
		case 'count':
			return countAudience(posted)
		default:
			return saveCampaign(posted)
	}
}

const campaignIdOf = (formData: FormData) => String(formData.get('campaignId') ?? '')

/** A campaign's button the API refused: said beside the buttons (or in the confirmation) that asked; a lost session signs out, what is not the API's answer is the error page's. */
async function refused(intent: string, error: unknown, { locale, request }: CampaignPost) {
	const { message, status } = await apiFailure(error, locale, request)
	return data({ refused: { intent, message } }, { status })
}

async function changeStatus(posted: CampaignPost, intent: 'start' | 'pause' | 'resume' | 'cancel') {
	const { api, workspaceId, here, t } = posted
	const campaignId = campaignIdOf(posted.formData)
	let changed: CampaignJson
	try {
		changed = await campaigns.moveCampaign(api, workspaceId, campaignId, intent)
	} catch (error) {
		return refused(intent, error, posted)
	}
	// Started with a date still ahead: scheduled, not started.
	const done = changed.status === 'scheduled' ? 'schedule' : intent
	return redirectWithToast(`${here}?campaign=${encodeURIComponent(campaignId)}`, { type: 'success', title: t(`campaigns.done.${done}`) })
}

async function deleteCampaign(posted: CampaignPost) {
	const { api, workspaceId, here, t } = posted
	try {
		await campaigns.deleteCampaign(api, workspaceId, campaignIdOf(posted.formData))
	} catch (error) {
		return refused('delete', error, posted)
	}
	return redirectWithToast(here, { type: 'success', title: t('campaigns.done.delete') })
}

// The form answered with the audience it counted: none until the "count" button is pressed.
const beside = { with: { audience: null } }

/** How many contacts the form's channel and labels reach, and the first of them: the "count" button (without JavaScript, the page's only count). */
async function countAudience({ api, workspaceId, formData, signedIn }: CampaignPost) {
	const submission = parseWithZod(formData, { schema: campaignSchema })
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const { channelId, labelsIn, labelsOut } = campaignBody(submission.value)
	try {
		const audience = await campaigns.previewAudience(api, workspaceId, { channelId, labelsIn, labelsOut })
		return data({ result: submission.reply(), audience })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
}

/** A new campaign, or the changes to a draft or a scheduled one (`campaignId`). */
async function saveCampaign({ api, workspaceId, here, t, formData, signedIn }: CampaignPost) {
	const submission = parseWithZod(formData, { schema: campaignSchema })
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const { campaignId } = submission.value
	const body = campaignBody(submission.value)
	let saved: CampaignJson
	try {
		saved = campaignId ? await campaigns.updateCampaign(api, workspaceId, campaignId, body) : await campaigns.createCampaign(api, workspaceId, body)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
	return redirectWithToast(`${here}?campaign=${saved.id}`, {
		type: 'success',
		title: t(campaignId ? 'campaigns.saved' : 'campaigns.created', { name: saved.name }),
	})
}
