import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { listCampaigns, listRecipients, previewAudience, previewMessage } from '#app/.server/campaigns.ts'
import { listChannels } from '#app/.server/channels.ts'
import { listContacts } from '#app/.server/contacts.ts'
import { listLabels } from '#app/.server/labels.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { CampaignDetail } from '#app/components/campaigns/campaign-detail.tsx'
import { CampaignForm } from '#app/components/campaigns/campaign-form.tsx'
import { CampaignList } from '#app/components/campaigns/campaign-list.tsx'
import { MessagePreview } from '#app/components/campaigns/message-preview.tsx'
import { Recipients } from '#app/components/campaigns/recipients.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { recipientStatuses } from '#app/utils/campaigns.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { campaignsAction } from './$lang.dashboard.campaign-manager.server.ts'
import * as styles from './dashboard.css.ts'
import { canManage } from '#common/roles.ts'

// The workspace channel's events this page shows reload it (app/realtime/use-workspace-events.ts). A message's delivery
// or a customer's answer that moves a campaign's totals (triggers of migration 0018) is announced as `campaign.updated`
// (api/conversations/events.ts); the workspace's other messages are not this page's.
export const handle = { live: ['campaign.', 'label.'] }

const confirmations = ['start', 'cancel'] as const

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const workspaceId = user.workspace.id
	const url = new URL(args.request.url)
	const t = await serverT(locale)
	const fail = (error: unknown) => rethrowApiError(error, locale, args.request)
	const [campaigns, channels, labels] = await Promise.all([
		listCampaigns(api, workspaceId),
		listChannels(api, workspaceId),
		listLabels(api, workspaceId),
	]).catch(fail)
	const manages = canManage(user.workspace.role)
	const opened = campaigns.find((campaign) => campaign.id === url.searchParams.get('campaign')) ?? null
	const status = recipientStatuses.find((candidate) => candidate === url.searchParams.get('status'))
	const page = Math.max(1, Number(url.searchParams.get('page')) || 1)
	// The message preview is for the contact picked (`previewContact`), else the audience's first; the
	// picker offers the contacts matching `previewSearch`, else the audience's first ones.
	const previewSearch = (url.searchParams.get('previewSearch') ?? '').trim().slice(0, 100)
	const detail = opened
		? await Promise.all([
				listRecipients(api, workspaceId, opened.id, { status, page, limit: 50 }),
				previewAudience(api, workspaceId, { channelId: opened.channelId, labelsIn: opened.labelsIn, labelsOut: opened.labelsOut }).catch(() => null),
				previewSearch
					? listContacts(api, workspaceId, { search: previewSearch, limit: 10 })
							.then(({ contacts }) => contacts.map((contact) => ({ contactId: contact.id, name: contact.name })))
							.catch(() => [])
					: null,
			]).catch(fail)
		: null
	const previewContact = url.searchParams.get('previewContact') || detail?.[1]?.recipients[0]?.contactId
	const preview = opened ? await previewMessage(api, workspaceId, opened.id, previewContact).catch(() => null) : null
	const choices = detail?.[2] ?? detail?.[1]?.recipients ?? []
	return {
		title: t('campaigns.title'),
		locale,
		manages,
		campaigns,
		channels,
		labels,
		opened,
		recipients: detail?.[0] ?? null,
		preview,
		previewSearch,
		// Nothing found for the search (the contact previewed is still offered).
		previewNoMatch: Boolean(previewSearch) && detail?.[2]?.length === 0,
		// The contact previewed stays among the choices.
		previewChoices:
			preview && !choices.some((choice) => choice.contactId === preview.contactId)
				? [{ contactId: preview.contactId, name: preview.name }, ...choices]
				: choices,
		status: status ?? '',
		page,
		editing: manages
			? (campaigns.find((campaign) => campaign.id === url.searchParams.get('edit') && ['draft', 'scheduled'].includes(campaign.status)) ?? null)
			: null,
		creating: manages && url.searchParams.has('new'),
		// Starting and cancelling are asked once more, in the page (`?confirm=`), so it works without JavaScript.
		confirming: manages && opened ? (confirmations.find((intent) => intent === url.searchParams.get('confirm')) ?? null) : null,
		// A draft with a date ahead is scheduled when started; without one (or with one past) it sends now.
		startsLater: Boolean(opened?.scheduledAt && Date.parse(opened.scheduledAt) > Date.now()),
	}
}

export const action = (args: ActionFunctionArgs) => campaignsAction(args)

export default function CampaignManager() {
	const loaded = useLoaderData<typeof loader>()
	const { title, locale, manages, campaigns, opened, editing, creating } = loaded
	const answer = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/campaign-manager`
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{t('campaigns.lead')}</p>
			</div>
			{manages && !creating && !editing ? (
				<div className={table.actions}>
					<Link to={`${base}?new`} className={button.primary}>
						{t('campaigns.new')}
					</Link>
				</div>
			) : null}
			{creating || editing ? (
				<CampaignForm
					key={editing?.id ?? 'new'}
					locale={locale}
					channels={loaded.channels}
					labels={loaded.labels}
					editing={editing}
					// The form's own answers (a campaign's buttons answer their refusals beside them).
					answer={answer && 'result' in answer ? answer : undefined}
				/>
			) : null}
			{opened ? (
				<CampaignDetail
					campaign={opened}
					locale={locale}
					manages={manages}
					confirming={loaded.confirming}
					startsLater={loaded.startsLater}
					// Why the API refused the last button pressed, said beside it.
					refused={answer && 'refused' in answer ? answer.refused : null}
					preview={
						<MessagePreview
							campaignId={opened.id}
							status={loaded.status}
							preview={loaded.preview}
							previewSearch={loaded.previewSearch}
							previewChoices={loaded.previewChoices}
							previewNoMatch={loaded.previewNoMatch}
						/>
					}
				>
					<Recipients campaignId={opened.id} locale={locale} recipients={loaded.recipients} status={loaded.status} page={loaded.page} />
				</CampaignDetail>
			) : null}
			<CampaignList campaigns={campaigns} caption={title} locale={locale} />
		</>
	)
}
