import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ApiError, type ChannelJson, type LinkSettings } from '#app/.server/api.ts'
import { getChannel, replaceChannelCredentials, rollCallbackSecret, updateChannel } from '#app/.server/channels.ts'
import { listTeams } from '#app/.server/teams.ts'
import { apiFailure, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import * as channelStyles from '#app/components/channels/channels.css.ts'
import { CopyButton } from '#app/components/channels/copy-button.tsx'
import { credentialFieldsOf, ReplaceCredentialsForm } from '#app/components/channels/connect-channel-form.tsx'
import { replaceCredentialsSchema } from '#app/components/channels/connect-channel-form.schema.ts'
import { LinkChannelForm } from '#app/components/channels/link-channel-form.tsx'
import { ChannelTeamForm } from '#app/components/channels/channel-team-form.tsx'
import { AutoRepliesForm, autoRepliesOfForm } from '#app/components/channels/auto-replies-form.tsx'
import { ChannelHoursForm } from '#app/components/channels/channel-hours-form.tsx'
import { saveHoursForm } from '#app/.server/business-hours.ts'
import { autoRepliesSchema } from '#common/auto-replies.ts'
import { channelTeamSchema } from '#app/components/channels/channel-team-form.schema.ts'
import { ChannelSatisfactionForm } from '#app/components/channels/channel-satisfaction-form.tsx'
import { channelSatisfactionSchema } from '#app/components/channels/channel-satisfaction-form.schema.ts'
import { linkChannelSchema } from '#app/components/channels/link-channel-form.schema.ts'
import { ApiCallbackForm } from '#app/components/channels/api-channel-form.tsx'
import { RolledSecret } from '#app/components/webhooks/shown-secret.tsx'
import { apiCallbackSchema } from '#app/components/channels/api-channel-form.schema.ts'
import { Button } from '#app/components/ui/button.tsx'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { pageNotFound, formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { campaignRateSchema, messagingChannelSchema } from './$lang.dashboard.settings.channels.$channelId.schema.ts'
import { channelFieldOf, linkChannelBody, publicUrlOf } from './$lang.dashboard.settings.channels.server.ts'
import * as styles from './dashboard.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { canManage } from '#common/roles.ts'

// The channels namespace loads with the page (before it hydrates), besides `common`; the webhooks' says a rolled callback secret.
export const handle = { i18n: ['channels', 'webhooks'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

const loadMessagingSchema = () => import('./$lang.dashboard.settings.channels.$channelId.schema.ts').then((module) => module.messagingChannelSchema)
const loadCampaignRateSchema = () => import('./$lang.dashboard.settings.channels.$channelId.schema.ts').then((module) => module.campaignRateSchema)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	if (!canManage(user.workspace.role)) throw redirect(`/${locale}/dashboard/settings/channels`)
	const [channel, teams] = await Promise.all([getChannel(api, user.workspace.id, args.params.channelId ?? ''), listTeams(api, user.workspace.id)]).catch(
		(error: unknown) => {
			if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
			return rethrowApiError(error, locale, args.request)
		},
	)
	const t = await channelsT(locale)
	return {
		title: t('ui.editTitle', { name: channel.name }),
		locale,
		channel,
		// The workspace's hours: what "the workspace's" means, and where its own hours start from.
		workspaceHours: user.workspace.businessHours,
		timezone: user.workspace.timezone,
		teams: teams.map((team) => ({ id: team.id, name: team.name })),
		// A link channel's settings, as the API answers them (defaults filled in).
		settings: channel.settings as LinkSettings,
		publicUrl: publicUrlOf(args, locale, channel),
		// Where an integration posts an API channel's messages: the public `/v1` of this server.
		inboundUrl:
			channel.kind === 'api'
				? `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/v1/workspaces/${user.workspace.id}/channels/${channel.id}/messages`
				: null,
		prefix: `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/${locale}/c/`,
	}
}

export async function action(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(args.request)
	if (form.get('intent') === 'credentials') return replaceCredentials(args, form)
	if (form.get('intent') === 'campaignRate') return saveCampaignRate(args, form)
	if (form.get('intent') === 'callback') return saveCallback(args, form)
	if (form.get('intent') === 'rollCallbackSecret') return rollSecret(args)
	if (form.get('intent') === 'team') return saveTeam(args, form)
	if (form.get('intent') === 'satisfaction') return saveSatisfaction(args, form)
	if (form.get('intent') === 'autoReplies') return saveAutoReplies(args, form)
	if (form.get('intent') === 'businessHours') return saveChannelHours(args, form)
	// A messaging channel changes its name and switch only (its settings come from the provider).
	const submission =
		form.get('kind') === 'messaging' ? parseWithZod(form, { schema: messagingChannelSchema }) : parseWithZod(form, { schema: linkChannelSchema })
	const beside = { with: { intent: 'settings' } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const body = 'kind' in submission.value ? { name: submission.value.name, enabled: submission.value.enabled } : linkChannelBody(submission.value)
	try {
		const saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', body)
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels`, { type: 'success', title: t('ui.saved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request }, fieldOf: channelFieldOf })
	}
}

/** New values for some credentials (the empty fields keep theirs); the page again with the provider's verdict. None typed comes back. */
async function replaceCredentials(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(form, { schema: replaceCredentialsSchema })
	// Nothing typed in this form comes back to the page.
	const beside = { with: { intent: 'credentials' }, hideFields: Object.keys(replaceCredentialsSchema.shape) }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const { intent: _intent, ...typed } = submission.value
	const credentials = Object.fromEntries(Object.entries(typed).filter(([, value]) => value))
	try {
		const saved = await replaceChannelCredentials(api, user.workspace.id, args.params.channelId ?? '', credentials)
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, {
			type: 'success',
			title: t('ui.credentialsReplaced', { name: saved.name }),
		})
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request }, fieldOf: channelFieldOf })
	}
}

/** The channel's campaign rate: a whole number from 1 to 1000, or empty for the kind's default. */
async function saveCampaignRate(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(form, { schema: campaignRateSchema })
	const beside = { with: { intent: 'campaignRate' } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		const rate = submission.value.campaignRatePerSecond ?? null
		const saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', { campaignRatePerSecond: rate })
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, { type: 'success', title: t('ui.campaignRateSaved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request } })
	}
}

/** An API channel's callback URL: checked by the API (https, reachable, not a private network), refused beside the field as typed. */
async function saveCallback(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(form, { schema: apiCallbackSchema })
	const beside = { with: { intent: 'callback' } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		const saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', { settings: { callbackUrl: submission.value.callbackUrl } })
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, { type: 'success', title: t('api.callbackSaved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request }, fieldOf: channelFieldOf })
	}
}

/** The team of the channel's new conversations: one of the workspace's, or none. */
/** A new secret for an API channel's callback: not a redirect, the secret is shown this once, in this answer; a refusal beside the button. */
async function rollSecret(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const intent = 'rollCallbackSecret' as const
	try {
		return data({ intent, rolled: await rollCallbackSecret(api, user.workspace.id, args.params.channelId ?? '') })
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, args.request)
		return data({ intent, rollRefused: message }, { status })
	}
}

async function saveTeam(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(form, { schema: channelTeamSchema })
	const beside = { with: { intent: 'team' } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		const saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', { teamId: submission.value.teamId ?? null })
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, { type: 'success', title: t('ui.teamSaved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request } })
	}
}

/** The channel's satisfaction survey, on or off. */
async function saveSatisfaction(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(form, { schema: channelSatisfactionSchema })
	const beside = { with: { intent: 'satisfaction' } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	try {
		const saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', { csatEnabled: submission.value.csatEnabled })
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, { type: 'success', title: t('ui.satisfactionSaved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request } })
	}
}

/** The away message and greeting: checked with the shared schema, then the API; refused beside their fields, as typed. */
async function saveAutoReplies(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const values = autoRepliesOfForm(form)
	const t = await serverT(locale)
	const refuse = (fields: Record<string, string[]>, message: string | null, status: number) =>
		data({ intent: 'autoReplies' as const, refused: { values, fields, message } }, { status })
	const checked = autoRepliesSchema.safeParse(values)
	if (!checked.success) {
		const fields: Record<string, string[]> = {}
		for (const issue of checked.error.issues) {
			const field = issue.path.join('.')
			fields[field] = [...(fields[field] ?? []), issue.message.includes(':') ? t(issue.message) : t('forms.invalid')]
		}
		return refuse(fields, null, 400)
	}
	try {
		const saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', { autoReplies: checked.data })
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, {
			type: 'success',
			title: (await channelsT(locale))('autoReplies.saved', { name: saved.name }),
		})
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		const { message, status } = await apiFailure(error, locale, args.request)
		const given = (error instanceof ApiError ? (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields : undefined) ?? {}
		const fields = Object.fromEntries(Object.entries(given).map(([path, messages]) => [path.replace(/^autoReplies\./, ''), messages]))
		return refuse(fields, Object.keys(fields).length ? null : message, status)
	}
}

/** The channel's business hours: the workspace's (null) or its own; refused beside their fields, as typed. */
async function saveChannelHours(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	let saved: ChannelJson | undefined
	const refused = await saveHoursForm(form, {
		intent: 'businessHours',
		locale,
		request: args.request,
		save: async (businessHours) => {
			try {
				saved = await updateChannel(api, user.workspace.id, args.params.channelId ?? '', { businessHours })
			} catch (error) {
				if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
				throw error
			}
		},
	})
	if (refused || !saved) return refused
	return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, {
		type: 'success',
		title: (await channelsT(locale))('hours.saved', { name: saved.name }),
	})
}

// Where each provider's webhook is set: Telegram's by us, Meta's pasted into its App Dashboard.
const webhookHelp = {
	link: 'ui.webhookHelp',
	telegram: 'ui.telegramWebhookHelp',
	whatsapp: 'ui.webhookHelp',
	messenger: 'ui.pageWebhookHelp',
	facebook: 'ui.pageWebhookHelp',
	instagram: 'ui.instagramWebhookHelp',
	// An API channel has no provider's webhook: its own page says where to post instead.
	api: 'ui.webhookHelp',
} as const

export default function EditChannel() {
	const { title, locale, channel, teams, settings, publicUrl, inboundUrl, prefix, workspaceHours, timezone } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	// Each form shows its own refusal only: the settings', the credentials', the campaign rate's.
	const resultOf = (intent: string) => (reply && 'result' in reply && reply.intent === intent ? reply.result : undefined)
	const { t } = useTranslation('channels')
	const pending = useNavigation().state === 'submitting'
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const snippet = publicUrl ? `<a href="${publicUrl}" target="_blank" rel="noopener">${channel.name}</a>` : null
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>
					<Link to={`/${locale}/dashboard/settings/channels`}>{t('ui.back')}</Link>
				</p>
			</div>
			{publicUrl ? (
				<p className={channelStyles.address}>
					<a href={publicUrl} target="_blank" rel="noopener noreferrer" className={channelStyles.url}>
						{publicUrl}
					</a>
					<CopyButton text={publicUrl} label={t('ui.copy')} copiedLabel={t('ui.copied')} accessibleName={t('ui.copyLabel', { name: channel.name })} />
				</p>
			) : null}
			{channel.webhook ? (
				<section className={styles.section} aria-labelledby="webhook-heading">
					<h2 id="webhook-heading" className={styles.sectionTitle}>
						{t('ui.webhookTitle')}
					</h2>
					<p className={styles.pageLead}>{t(webhookHelp[channel.kind])}</p>
					<CopyableValue id="webhook-url" label={t('ui.webhookUrl')} value={channel.webhook.url} />
					{channel.webhook.verifyToken ? <CopyableValue id="verify-token" label={t('ui.verifyTokenLabel')} value={channel.webhook.verifyToken} /> : null}
				</section>
			) : null}
			{inboundUrl ? (
				<section className={styles.section} aria-labelledby="inbound-heading">
					<h2 id="inbound-heading" className={styles.sectionTitle}>
						{t('api.inboundTitle')}
					</h2>
					<p className={styles.pageLead}>{t('api.inboundHelp')}</p>
					<CopyableValue id="inbound-url" label={t('api.inboundUrl')} value={inboundUrl} />
					<p className={styles.pageLead}>{t('api.statusHelp')}</p>
					<p>
						<code dir="ltr" className={channelStyles.url}>{`POST …/messages/{messageId}/status  {"status": "delivered"}`}</code>
					</p>
				</section>
			) : null}
			{channel.kind === 'api' ? (
				<section className={styles.section} aria-labelledby="callback-heading">
					<h2 id="callback-heading" className={styles.sectionTitle}>
						{t('api.callbackTitle')}
					</h2>
					{channel.callback?.disabledAt ? (
						<p role="status" className={channelStyles.statusDetail}>
							{t('api.callbackDisabled', { date: date(channel.callback.disabledAt) })}
						</p>
					) : channel.callback?.failingSince ? (
						<p role="status" className={channelStyles.statusDetail}>
							{t('api.callbackFailing', { date: date(channel.callback.failingSince) })}
						</p>
					) : null}
					<ApiCallbackForm
						callbackUrl={typeof channel.settings.callbackUrl === 'string' ? channel.settings.callbackUrl : ''}
						result={resultOf('callback')}
						pending={pending}
					/>
					<p className={styles.pageLead}>{t('api.rollHelp')}</p>
					<Form method="post" className={styles.actionsRow}>
						<Button type="submit" name="intent" value="rollCallbackSecret" variant="outline" disabled={pending}>
							{t('webhooks:secret.roll')}
						</Button>
					</Form>
					{reply && 'rollRefused' in reply ? (
						<p role="alert" className={field.errors}>
							{reply.rollRefused}
						</p>
					) : null}
					{reply && 'rolled' in reply ? <RolledSecret rolled={reply.rolled} locale={locale} timeZone={timezone ?? 'UTC'} /> : null}
				</section>
			) : null}
			<section className={styles.section} aria-labelledby="edit-heading">
				<h2 id="edit-heading" className={styles.sectionTitle}>
					{channel.kind === 'link' ? t('ui.linkForm') : t(`ui.kinds.${channel.kind}`)}
				</h2>
				{channel.kind === 'link' ? (
					<LinkChannelForm
						id="channel"
						values={{ name: channel.name, slug: channel.slug ?? '', enabled: channel.enabled, ...settings }}
						result={resultOf('settings')}
						prefix={prefix}
						submit={t('ui.save')}
						pending={pending}
					/>
				) : (
					<MessagingChannelForm channel={channel} result={resultOf('settings')} pending={pending} />
				)}
			</section>
			{channel.maskedCredentials && credentialFieldsOf(channel.kind).length ? (
				<section className={styles.section} aria-labelledby="credentials-heading">
					<h2 id="credentials-heading" className={styles.sectionTitle}>
						{t('ui.credentialsTitle')}
					</h2>
					<p className={styles.pageLead}>{t('ui.credentialsHelp')}</p>
					<ReplaceCredentialsForm kind={channel.kind} masked={channel.maskedCredentials} result={resultOf('credentials')} pending={pending} />
				</section>
			) : null}
			<section className={styles.section} aria-labelledby="team-heading">
				<h2 id="team-heading" className={styles.sectionTitle}>
					{t('ui.teamTitle')}
				</h2>
				<ChannelTeamForm teamId={channel.teamId} teams={teams} result={resultOf('team')} pending={pending} />
			</section>
			<section className={styles.section} aria-labelledby="satisfaction-heading">
				<h2 id="satisfaction-heading" className={styles.sectionTitle}>
					{t('ui.satisfactionTitle')}
				</h2>
				<ChannelSatisfactionForm csatEnabled={channel.csatEnabled} result={resultOf('satisfaction')} pending={pending} />
			</section>
			<section className={styles.section} aria-labelledby="auto-replies-heading">
				<h2 id="auto-replies-heading" className={styles.sectionTitle}>
					{t('autoReplies.title')}
				</h2>
				<AutoRepliesForm
					replies={channel.autoReplies}
					linkPage={channel.kind === 'link'}
					refused={reply && 'refused' in reply && reply.intent === 'autoReplies' ? reply.refused : undefined}
					pending={pending}
				/>
			</section>
			<section className={styles.section} aria-labelledby="channel-hours-heading">
				<h2 id="channel-hours-heading" className={styles.sectionTitle}>
					{t('hours.title')}
				</h2>
				<ChannelHoursForm
					hours={channel.businessHours}
					workspaceHours={workspaceHours}
					timezone={timezone}
					locale={locale}
					refused={reply && 'refused' in reply && reply.intent === 'businessHours' ? reply.refused : undefined}
					pending={pending}
				/>
			</section>
			<section className={styles.section} aria-labelledby="campaign-rate-heading">
				<h2 id="campaign-rate-heading" className={styles.sectionTitle}>
					{t('ui.campaignsTitle')}
				</h2>
				<CampaignRateForm channel={channel} result={resultOf('campaignRate')} pending={pending} />
			</section>
			{snippet ? (
				<section className={styles.section} aria-labelledby="snippet-heading">
					<h2 id="snippet-heading" className={styles.sectionTitle}>
						{t('ui.snippet')}
					</h2>
					<p id="snippet-help" className={styles.pageLead}>
						{t('ui.snippetHelp')}
					</p>
					<textarea readOnly value={snippet} aria-labelledby="snippet-heading" aria-describedby="snippet-help" className={channelStyles.snippet} />
				</section>
			) : null}
		</>
	)
}

/** A messaging channel's name and switch; what the provider said of it (the bot's or Instagram account's @username, the page's name) beside. */
function MessagingChannelForm({
	channel,
	result,
	pending,
}: {
	channel: Pick<ChannelJson, 'name' | 'enabled' | 'settings'>
	result: SubmissionResult<string[]> | undefined
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadMessagingSchema, {
		id: 'channel',
		lastResult: result,
		defaultValue: { name: channel.name, enabled: channel.enabled },
	})
	const setting = (name: string) => (typeof channel.settings[name] === 'string' ? (channel.settings[name] as string) : null)
	const username = setting('botUsername') ?? setting('instagramUsername')
	const pageName = setting('pageName')
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="kind" value="messaging" />
			<FormErrors id={form.errorId} errors={form.errors} />
			{username || pageName ? (
				<p className={field.help} dir="auto">
					{[pageName, username ? `@${username}` : null].filter(Boolean).join(' · ')}
				</p>
			) : null}
			<Field
				label={t('ui.name')}
				input={{ ...getInputProps(fields.name, { type: 'text' }), required: true, maxLength: 80 }}
				errors={fields.name.errors}
				errorId={fields.name.errorId}
			/>
			<label className={channelStyles.check}>
				<input {...getInputProps(fields.enabled, { type: 'checkbox' })} />
				{t('ui.enabledMessaging')}
			</label>
			<div>
				<Button type="submit" disabled={pending}>
					{t('ui.save')}
				</Button>
			</div>
		</Form>
	)
}

/** The rate of the channel's campaigns that set none of their own; empty: the kind's default. */
function CampaignRateForm({
	channel,
	result,
	pending,
}: {
	channel: Pick<ChannelJson, 'kind' | 'campaignRatePerSecond' | 'kindRatePerSecond'>
	result: SubmissionResult<string[]> | undefined
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadCampaignRateSchema, {
		id: 'campaign',
		lastResult: result,
		defaultValue: { campaignRatePerSecond: channel.campaignRatePerSecond === null ? '' : String(channel.campaignRatePerSecond) },
	})
	const rate = fields.campaignRatePerSecond
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="intent" value="campaignRate" />
			<FormErrors id={form.errorId} errors={form.errors} />
			<div className={field.field}>
				<label className={field.label} htmlFor={rate.id}>
					{t('ui.campaignRate')}
				</label>
				<input
					{...getInputProps(rate, { type: 'number', ariaDescribedBy: `${rate.id}-help` })}
					min={1}
					max={1000}
					step={1}
					inputMode="numeric"
					placeholder={String(channel.kindRatePerSecond)}
					className={field.input}
				/>
				<p id={`${rate.id}-help`} className={field.help}>
					{t('ui.campaignRateHelp', { rate: channel.kindRatePerSecond, kind: t(`ui.kinds.${channel.kind}`) })}
				</p>
				<ErrorList id={rate.errorId} errors={rate.errors} />
			</div>
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('ui.saveCampaignRate')}
				</Button>
			</div>
		</Form>
	)
}

/** A value to paste elsewhere: readonly (selectable without JavaScript), with a copy button. */
function CopyableValue({ id, label, value }: { id: string; label: string; value: string }) {
	const { t } = useTranslation('channels')
	return (
		<div className={field.field}>
			<label className={field.label} htmlFor={id}>
				{label}
			</label>
			<p className={channelStyles.address}>
				<input id={id} readOnly value={value} dir="ltr" className={field.input} />
				<CopyButton text={value} label={t('ui.copy')} copiedLabel={t('ui.copied')} accessibleName={t('ui.copyLabel', { name: label })} />
			</p>
		</div>
	)
}
