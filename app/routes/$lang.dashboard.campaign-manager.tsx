import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useFetcher, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { useTranslation } from 'react-i18next'
import { type CampaignJson, type ChannelJson, type LabelJson } from '#app/.server/api.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { isolatedText } from '#app/utils/bidi.tsx'
import { recipientStatuses, type Audience, type Preview, type RecipientJson } from '#app/utils/campaigns.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { type AudienceLoader } from './$lang.dashboard.campaign-manager_.audience.tsx'
import { campaignsAction } from './$lang.dashboard.campaign-manager.server.ts'
import * as styles from './dashboard.css.ts'
import { canManage } from '#common/roles.ts'

// The workspace channel's events this page shows reload it (app/realtime/use-workspace-events.ts). A message's delivery
// or a customer's answer that moves a campaign's totals (triggers of migration 0018) is announced as `campaign.updated`
// (api/conversations/events.ts); the workspace's other messages are not this page's.
export const handle = { live: ['campaign.', 'label.'] }

const loadSchema = () => import('./$lang.dashboard.campaign-manager.schema.ts').then((module) => module.campaignSchema)

const confirmations = ['start', 'cancel'] as const

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const base = `/workspaces/${user.workspace.id}`
	const url = new URL(args.request.url)
	const t = await serverT(locale)
	const fail = (error: unknown) => rethrowApiError(error, locale, args.request)
	const [{ campaigns }, { channels }, { labels }] = await Promise.all([
		api.get<{ campaigns: CampaignJson[] }>(`${base}/campaigns`),
		api.get<{ channels: ChannelJson[] }>(`${base}/channels`),
		api.get<{ labels: LabelJson[] }>(`${base}/labels`),
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
				api.get<{ recipients: RecipientJson[]; total: number }>(`${base}/campaigns/${opened.id}/recipients`, { status, page, limit: 50 }),
				api
					.post<Audience>(`${base}/campaigns/audience`, { channelId: opened.channelId, labelsIn: opened.labelsIn, labelsOut: opened.labelsOut })
					.catch(() => null),
				previewSearch
					? api
							.get<{ contacts: Array<{ id: string; name: string }> }>(`${base}/contacts`, { search: previewSearch, limit: 10 })
							.then(({ contacts }) => contacts.map((contact) => ({ contactId: contact.id, name: contact.name })))
							.catch(() => [])
					: null,
			]).catch(fail)
		: null
	const previewContact = url.searchParams.get('previewContact') || detail?.[1]?.recipients[0]?.contactId
	const preview = opened ? await api.get<Preview>(`${base}/campaigns/${opened.id}/message-preview`, { contactId: previewContact }).catch(() => null) : null
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

function Progress({ campaign }: { campaign: CampaignJson }) {
	const { t } = useTranslation()
	const label = t('campaigns.progress', { done: campaign.processed, total: campaign.audienceCount })
	return (
		<span className={table.actions}>
			<progress max={Math.max(campaign.audienceCount, 1)} value={campaign.processed} aria-label={label} />
			<span>{label}</span>
		</span>
	)
}

/**
 * The audience counted again as its channel and labels change (with JavaScript): one request at a
 * time, the latest choice asked for once the one in flight is back, a quarter of a second after
 * the last change.
 */
function useLiveAudience(locale: string) {
	const fetcher = useFetcher<AudienceLoader>()
	const formRef = useRef<HTMLFormElement>(null)
	const loaded = useRef<string | null>(null)
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const [wanted, setWanted] = useState<string | null>(null)
	const idle = fetcher.state === 'idle'
	const { load } = fetcher
	useEffect(() => {
		if (!idle || wanted === null || wanted === loaded.current) return
		loaded.current = wanted
		load(wanted)
	}, [idle, wanted, load])
	const ask = useCallback(() => {
		if (!formRef.current) return
		const values = new FormData(formRef.current)
		const params = new URLSearchParams({ channelId: String(values.get('channelId') ?? '') })
		for (const name of ['labelsIn', 'labelsOut']) for (const id of values.getAll(name)) params.append(name, String(id))
		setWanted(`/${locale}/dashboard/campaign-manager/audience?${params}`)
	}, [locale])
	// Counted once when the form opens, then after each change.
	useEffect(() => {
		ask()
		return () => clearTimeout(timer.current)
	}, [ask])
	const onChange = (event: React.FormEvent<HTMLFormElement>) => {
		const name = (event.target as HTMLInputElement).name
		if (name !== 'channelId' && name !== 'labelsIn' && name !== 'labelsOut') return
		clearTimeout(timer.current)
		timer.current = setTimeout(ask, 250)
	}
	return { formRef, onChange, audience: fetcher.data?.audience ?? null, counting: !idle }
}

function CampaignForm() {
	const { locale, channels, labels, editing } = useLoaderData<typeof loader>()
	const kept = useKeptActionData<typeof action>()
	// The form's own answers (a campaign's actions answer their refusals beside their buttons).
	const answer = kept && 'result' in kept ? kept : undefined
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const { formRef, onChange, audience: counted, counting } = useLiveAudience(locale)
	// The live count once it is back; until then (or without JavaScript) the "count" button's answer.
	const audience = counted ?? answer?.audience ?? null
	const [form, fields] = useValidatedForm(loadSchema, {
		id: editing ? `campaign-${editing.id}` : 'campaign-new',
		lastResult: answer?.result,
		shouldValidate: 'onSubmit',
		defaultValue: editing
			? {
					name: editing.name,
					channelId: editing.channelId,
					labelsIn: editing.labelsIn,
					labelsOut: editing.labelsOut,
					body: editing.template ? '' : editing.body,
					templateName: editing.template?.name ?? '',
					templateLanguage: editing.template?.language ?? '',
					templateParameters: editing.template?.parameters.join('\n') ?? '',
					scheduledAt: editing.scheduledAt?.slice(0, 16) ?? '',
				}
			: { channelId: channels[0]?.id },
	})
	const chosen = (name: 'labelsIn' | 'labelsOut', id: string) => {
		const value = fields[name].value
		return Array.isArray(value) ? value.includes(id) : value === id
	}
	return (
		<section className={styles.section} aria-labelledby="campaign-form-heading">
			<h2 id="campaign-form-heading" className={styles.sectionTitle}>
				{editing ? t('campaigns.edit', { name: isolatedText(editing.name) }) : t('campaigns.new')}
			</h2>
			<Form method="post" {...getFormProps(form)} className={formClass} ref={formRef} onChange={onChange}>
				{editing ? <input type="hidden" name="campaignId" value={editing.id} /> : null}
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field
					label={t('campaigns.name')}
					input={{ ...getInputProps(fields.name, { type: 'text' }), required: true, autoComplete: 'off' }}
					errors={fields.name.errors}
					errorId={fields.name.errorId}
				/>
				<div className={fieldStyles.field}>
					<label htmlFor={fields.channelId.id} className={fieldStyles.label}>
						{t('campaigns.channel')}
					</label>
					<select
						id={fields.channelId.id}
						name={fields.channelId.name}
						defaultValue={String(fields.channelId.initialValue ?? '')}
						className={fieldStyles.input}
						required
					>
						{channels.map((channel) => (
							<option key={channel.id} value={channel.id}>
								{channel.name} ({channel.kind})
							</option>
						))}
					</select>
					<ErrorList id={fields.channelId.errorId} errors={fields.channelId.errors} />
				</div>
				{(['labelsIn', 'labelsOut'] as const).map((name) => (
					<fieldset key={name} className={fieldStyles.choices}>
						<legend className={fieldStyles.label}>{t(`campaigns.${name}`)}</legend>
						{labels.map((label) => (
							<label key={label.id} className={fieldStyles.choice}>
								<input type="checkbox" name={name} value={label.id} defaultChecked={chosen(name, label.id)} /> {label.title}
							</label>
						))}
						{labels.length === 0 ? <p>{t('campaigns.noLabels')}</p> : null}
						<ErrorList id={fields[name].errorId} errors={fields[name].errors} />
					</fieldset>
				))}
				<div className={table.actions}>
					<Button type="submit" name="intent" value="count" variant="outline" disabled={pending}>
						{t('campaigns.count')}
					</Button>
					<p role="status" aria-busy={counting || undefined}>
						{audience ? t('campaigns.audienceCount', { count: audience.count }) : null}
						{audience && audience.recipients.length > 0
							? ` — ${audience.recipients.map((recipient) => recipient.name).join(', ')}${audience.count > audience.recipients.length ? '…' : ''}`
							: ''}
					</p>
				</div>
				<div className={fieldStyles.field}>
					<label htmlFor={fields.body.id} className={fieldStyles.label}>
						{t('campaigns.message')}
					</label>
					<textarea {...getTextareaProps(fields.body)} className={fieldStyles.textarea} aria-describedby={`${fields.body.id}-help`} />
					<p id={`${fields.body.id}-help`} className={fieldStyles.help}>
						{t('campaigns.variablesHelp')}
					</p>
					<ErrorList id={fields.body.errorId} errors={fields.body.errors} />
				</div>
				<details>
					<summary>{t('campaigns.template')}</summary>
					<Field
						label={t('campaigns.templateName')}
						input={{ ...getInputProps(fields.templateName, { type: 'text' }), autoComplete: 'off', dir: 'ltr' }}
						errors={fields.templateName.errors}
						errorId={fields.templateName.errorId}
					/>
					<Field
						label={t('campaigns.templateLanguage')}
						input={{ ...getInputProps(fields.templateLanguage, { type: 'text' }), autoComplete: 'off', dir: 'ltr' }}
						errors={fields.templateLanguage.errors}
						errorId={fields.templateLanguage.errorId}
					/>
					<div className={fieldStyles.field}>
						<label htmlFor={fields.templateParameters.id} className={fieldStyles.label}>
							{t('campaigns.templateParameters')}
						</label>
						<textarea {...getTextareaProps(fields.templateParameters)} className={fieldStyles.textarea} />
						<ErrorList id={fields.templateParameters.errorId} errors={fields.templateParameters.errors} />
					</div>
				</details>
				<Field
					label={t('campaigns.scheduledAt')}
					help={t('campaigns.scheduledAtHelp')}
					input={getInputProps(fields.scheduledAt, { type: 'datetime-local' })}
					errors={fields.scheduledAt.errors}
					errorId={fields.scheduledAt.errorId}
				/>
				<Field
					label={t('campaigns.rate')}
					help={t('campaigns.rateHelp')}
					input={{ ...getInputProps(fields.ratePerSecond, { type: 'number' }), min: 1, max: 1000 }}
					errors={fields.ratePerSecond.errors}
					errorId={fields.ratePerSecond.errorId}
				/>
				<div className={table.actions}>
					<Button type="submit" name="intent" value="save" disabled={pending}>
						{editing ? t('campaigns.save') : t('campaigns.create')}
					</Button>
					<Link to={`/${locale}/dashboard/campaign-manager`} className={button.ghost}>
						{t('actions.cancel')}
					</Link>
				</div>
			</Form>
		</section>
	)
}

function CampaignDetail({ campaign }: { campaign: CampaignJson }) {
	const { locale, manages, recipients, status, page, confirming, startsLater } = useLoaderData<typeof loader>()
	const answer = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const here = `/${locale}/dashboard/campaign-manager?campaign=${campaign.id}`
	// Why the API refused the last action, said beside the form that asked.
	const refused = answer && 'refused' in answer ? answer.refused : null
	const started = !['draft', 'scheduled'].includes(campaign.status)
	const start = startsLater ? t('campaigns.actions.schedule') : t('campaigns.actions.start')
	const act = (intent: string, label: string) => (
		<Form method="post">
			<input type="hidden" name="campaignId" value={campaign.id} />
			<Button type="submit" name="intent" value={intent} variant="outline">
				{label}
			</Button>
		</Form>
	)
	return (
		<section className={styles.section} aria-labelledby="campaign-heading">
			<h2 id="campaign-heading" className={styles.sectionTitle}>
				<bdi>{campaign.name}</bdi> — {t(`campaigns.status.${campaign.status}`)}
			</h2>
			{campaign.statusDetail ? <p>{campaign.statusDetail}</p> : null}
			{/* Before it starts, whom it will reach now (the form's count); then how far it got. */}
			{started ? <Progress campaign={campaign} /> : <p data-audience>{t('campaigns.audienceCount', { count: campaign.audienceCount })}</p>}
			<dl className={table.actions}>
				{recipientStatuses.map((name) => (
					<div key={name}>
						<dt>{t(`campaigns.recipientStatus.${name}`)}</dt>
						<dd data-total={name}>{campaign.totals[name]}</dd>
					</div>
				))}
			</dl>
			{campaign.status === 'scheduled' && campaign.scheduledAt ? <p>{t('campaigns.scheduledFor', { date: date(campaign.scheduledAt) })}</p> : null}
			<MessagePreview campaign={campaign} />
			{confirming === 'start' && campaign.status === 'draft' ? (
				<Confirm
					id="confirm"
					tone="primary"
					title={
						startsLater && campaign.scheduledAt
							? t('campaigns.scheduleTitle', { count: campaign.audienceCount, date: date(campaign.scheduledAt) })
							: t('campaigns.startTitle', { count: campaign.audienceCount })
					}
					text={t('campaigns.startText')}
					fields={{ intent: 'start', campaignId: campaign.id }}
					confirm={startsLater ? t('campaigns.actions.schedule') : t('campaigns.actions.sendNow')}
					cancel={here}
					error={refused?.intent === 'start' ? refused.message : null}
				/>
			) : null}
			{confirming === 'cancel' ? (
				<Confirm
					id="confirm"
					title={t('campaigns.cancelTitle', { name: isolatedText(campaign.name) })}
					text={t('campaigns.cancelText')}
					fields={{ intent: 'cancel', campaignId: campaign.id }}
					confirm={t('campaigns.actions.cancel')}
					cancel={here}
					error={refused?.intent === 'cancel' ? refused.message : null}
				/>
			) : null}
			{refused && !(confirming && refused.intent === confirming) ? (
				<p role="alert" className={fieldStyles.formErrors}>
					{refused.message}
				</p>
			) : null}
			{manages ? (
				<div className={table.actions}>
					{campaign.status === 'draft' && !confirming ? (
						<Link to={`${here}&confirm=start#confirm`} className={button.primary}>
							{start}
						</Link>
					) : null}
					{campaign.status === 'running' ? act('pause', t('campaigns.actions.pause')) : null}
					{campaign.status === 'paused' || campaign.status === 'failed' ? act('resume', t('campaigns.actions.resume')) : null}
					{['draft', 'scheduled'].includes(campaign.status) ? (
						<Link to={`/${locale}/dashboard/campaign-manager?edit=${campaign.id}`} className={button.ghost}>
							{t('actions.edit')}
						</Link>
					) : null}
					{['draft', 'scheduled', 'running', 'paused', 'failed'].includes(campaign.status) && !confirming ? (
						<Link to={`${here}&confirm=cancel#confirm`} className={button.ghost}>
							{t('campaigns.actions.cancel')}
						</Link>
					) : null}
				</div>
			) : null}
			<Form method="get" className={table.actions}>
				<input type="hidden" name="campaign" value={campaign.id} />
				<label htmlFor="recipient-status">{t('campaigns.filter')}</label>
				<select id="recipient-status" name="status" defaultValue={status} className={fieldStyles.input}>
					<option value="">{t('campaigns.allStatuses')}</option>
					{recipientStatuses.map((name) => (
						<option key={name} value={name}>
							{t(`campaigns.recipientStatus.${name}`)}
						</option>
					))}
				</select>
				<Button type="submit" variant="outline">
					{t('campaigns.apply')}
				</Button>
				<a href={`/${locale}/dashboard/campaign-manager/export?campaign=${campaign.id}${status ? `&status=${status}` : ''}`} className={button.ghost} download>
					{t('campaigns.export')}
				</a>
			</Form>
			<div className={table.wrapper}>
				<table className={table.table}>
					<caption className="visually-hidden">{t('campaigns.recipients')}</caption>
					<thead>
						<tr>
							<th className={table.th}>{t('campaigns.contact')}</th>
							<th className={table.th}>{t('campaigns.state')}</th>
							<th className={table.th}>{t('campaigns.reason')}</th>
						</tr>
					</thead>
					<tbody>
						{recipients?.recipients.map((recipient) => (
							<tr key={recipient.contactId}>
								<td className={table.td}>{recipient.name}</td>
								<td className={table.td}>{t(`campaigns.recipientStatus.${recipient.status}`)}</td>
								<td className={table.td}>{recipient.reason}</td>
							</tr>
						))}
					</tbody>
				</table>
				{recipients && recipients.total === 0 ? <p className={table.empty}>{t('campaigns.noRecipients')}</p> : null}
				{recipients && recipients.total > page * 50 ? (
					<Link to={`${here}${status ? `&status=${status}` : ''}&page=${page + 1}`}>{t('campaigns.more')}</Link>
				) : null}
			</div>
		</section>
	)
}

/**
 * The message as one real contact reads it: the audience's first by default; a search of the
 * workspace's contacts and a choice among them (GET forms: without JavaScript, a search and a
 * submit; with it, the search runs as one types and a choice shows at once).
 */
function MessagePreview({ campaign }: { campaign: CampaignJson }) {
	const { preview, previewSearch, previewChoices, previewNoMatch, status } = useLoaderData<typeof loader>()
	const { t } = useTranslation()
	const submit = useSubmit()
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])
	const keep = (
		<>
			<input type="hidden" name="campaign" value={campaign.id} />
			{status ? <input type="hidden" name="status" value={status} /> : null}
		</>
	)
	const quietly = { replace: true, preventScrollReset: true } as const
	return (
		<section aria-labelledby="preview-heading" className={styles.section}>
			<h3 id="preview-heading" className={styles.sectionTitle}>
				{t('campaigns.previewTitle')}
			</h3>
			{preview ? (
				<p>
					{t('campaigns.previewFor', { name: isolatedText(preview.name) })}{' '}
					<q>
						<bdi>{preview.body}</bdi>
					</q>
				</p>
			) : (
				<p>{t('campaigns.noPreview')}</p>
			)}
			<Form
				method="get"
				role="search"
				className={table.actions}
				onChange={(event) => {
					const searchForm = event.currentTarget
					clearTimeout(timer.current)
					timer.current = setTimeout(() => submit(searchForm, quietly), 300)
				}}
			>
				{keep}
				<label htmlFor="preview-search">{t('campaigns.previewSearch')}</label>
				<input
					id="preview-search"
					type="search"
					name="previewSearch"
					defaultValue={previewSearch}
					maxLength={100}
					autoComplete="off"
					className={fieldStyles.input}
				/>
				<Button type="submit" variant="outline">
					{t('campaigns.previewFind')}
				</Button>
			</Form>
			{previewNoMatch ? <p role="status">{t('campaigns.previewNoMatch', { search: previewSearch })}</p> : null}
			{previewChoices.length > 0 ? (
				<Form method="get" className={table.actions} key={`${previewSearch} ${preview?.contactId ?? ''}`}>
					{keep}
					{previewSearch ? <input type="hidden" name="previewSearch" value={previewSearch} /> : null}
					<label htmlFor="preview-contact">{t('campaigns.previewContact')}</label>
					<select
						id="preview-contact"
						name="previewContact"
						defaultValue={preview?.contactId}
						className={fieldStyles.input}
						onChange={(event) => {
							// A choice wins over a search still waiting to run.
							clearTimeout(timer.current)
							submit(event.currentTarget.form, quietly)
						}}
					>
						{previewChoices.map((choice) => (
							<option key={choice.contactId} value={choice.contactId}>
								{choice.name}
							</option>
						))}
					</select>
					<Button type="submit" variant="outline">
						{t('campaigns.previewShow')}
					</Button>
				</Form>
			) : null}
		</section>
	)
}

export default function CampaignManager() {
	const { title, locale, manages, campaigns, opened, editing, creating } = useLoaderData<typeof loader>()
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
			{creating || editing ? <CampaignForm key={editing?.id ?? 'new'} /> : null}
			{opened ? <CampaignDetail campaign={opened} /> : null}
			<div className={table.wrapper}>
				<table className={table.table}>
					<caption className="visually-hidden">{title}</caption>
					<thead>
						<tr>
							<th className={table.th}>{t('campaigns.name')}</th>
							<th className={table.th}>{t('campaigns.state')}</th>
							<th className={table.th}>{t('campaigns.channel')}</th>
							<th className={table.th}>{t('campaigns.audience')}</th>
							<th className={table.th}>{t('campaigns.progressTitle')}</th>
						</tr>
					</thead>
					<tbody>
						{campaigns.map((campaign) => (
							<tr key={campaign.id}>
								<td className={table.td}>
									<Link to={`${base}?campaign=${campaign.id}`} dir="auto">
										{campaign.name}
									</Link>
								</td>
								<td className={table.td}>{t(`campaigns.status.${campaign.status}`)}</td>
								<td className={table.td}>{campaign.channelName}</td>
								<td className={table.td}>{campaign.audienceCount}</td>
								<td className={table.td}>
									<Progress campaign={campaign} />
								</td>
							</tr>
						))}
					</tbody>
				</table>
				{campaigns.length === 0 ? <p className={table.empty}>{t('campaigns.none')}</p> : null}
			</div>
		</>
	)
}
