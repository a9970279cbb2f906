import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ApiError, type ChannelJson, type LinkSettings } from '#app/.server/api.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import * as channelStyles from '#app/components/channels/channels.css.ts'
import { CopyButton } from '#app/components/channels/copy-button.tsx'
import { credentialFieldsOf, ReplaceCredentialsForm } from '#app/components/channels/connect-channel-form.tsx'
import { fieldMessages, LinkChannelForm, type Reply } from '#app/components/channels/link-channel-form.tsx'
import { Button } from '#app/components/ui/button.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { pageNotFound, formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { channelFormReply, type ChannelFormReply, linkChannelBody, linkFormValues, publicUrlOf } from './$lang.dashboard.settings.channels.server.ts'
import * as styles from './dashboard.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { canManage } from '#common/roles.ts'

// The channels namespace loads with the page (before it hydrates), besides `common`.
export const handle = { i18n: ['channels'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

const channelPath = (workspaceId: string, channelId: string | undefined) => `/workspaces/${workspaceId}/channels/${encodeURIComponent(channelId ?? '')}`

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	if (!canManage(user.workspace.role)) throw redirect(`/${locale}/dashboard/settings/channels`)
	const channel = await api.get<ChannelJson>(channelPath(user.workspace.id, args.params.channelId)).catch((error: unknown) => {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return rethrowApiError(error, locale, args.request)
	})
	const t = await channelsT(locale)
	return {
		title: t('ui.editTitle', { name: channel.name }),
		locale,
		channel,
		// A link channel's settings, as the API answers them (defaults filled in).
		settings: channel.settings as LinkSettings,
		publicUrl: publicUrlOf(args, locale, channel),
		prefix: `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/${locale}/c/`,
	}
}

export async function action(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(args.request)
	if (form.get('intent') === 'credentials') return replaceCredentials(args, form)
	if (form.get('intent') === 'campaignRate') return saveCampaignRate(args, form)
	const link = linkChannelBody(form)
	// A messaging channel changes its name and switch only (its settings come from the provider).
	const messaging = form.get('kind') === 'messaging'
	const body = messaging ? { name: link.name, enabled: link.enabled } : link
	try {
		const saved = await api.patch<ChannelJson>(channelPath(user.workspace.id, args.params.channelId), body)
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels`, { type: 'success', title: t('ui.saved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return channelFormReply(error, messaging ? { name: link.name, enabled: link.enabled } : linkFormValues(link), locale, args.request)
	}
}

/** New values for some credentials (the empty fields keep theirs); the page again with the provider's verdict. */
async function replaceCredentials(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const credentials = Object.fromEntries(
		[...form.entries()]
			.filter(([name, value]) => name !== 'intent' && typeof value === 'string' && value.trim())
			.map(([name, value]) => [name, String(value).trim()]),
	)
	const path = `${channelPath(user.workspace.id, args.params.channelId)}/credentials`
	try {
		const saved = await api.put<ChannelJson>(path, { credentials })
		const t = await channelsT(locale)
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, {
			type: 'success',
			title: t('ui.credentialsReplaced', { name: saved.name }),
		})
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return channelFormReply(error, { intent: 'credentials' }, locale, args.request)
	}
}

/** The channel's campaign rate: a whole number from 1 to 1000, or empty for the kind's default. */
async function saveCampaignRate(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const t = await channelsT(locale)
	const typed = String(form.get('campaignRatePerSecond') ?? '').trim()
	const rate = typed === '' ? null : Number(typed)
	if (rate !== null && !(/^\d+$/.test(typed) && rate >= 1 && rate <= 1000)) {
		const reply: ChannelFormReply = {
			fieldErrors: { campaignRatePerSecond: [t('validation.campaignRate')] },
			formError: null,
			values: { intent: 'campaignRate', campaignRatePerSecond: typed },
		}
		return data(reply, { status: 400 })
	}
	try {
		const saved = await api.patch<ChannelJson>(channelPath(user.workspace.id, args.params.channelId), { campaignRatePerSecond: rate })
		return redirectWithToast(`/${locale}/dashboard/settings/channels/${saved.id}`, { type: 'success', title: t('ui.campaignRateSaved', { name: saved.name }) })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		return channelFormReply(error, { intent: 'campaignRate', campaignRatePerSecond: typed }, locale, args.request)
	}
}

// Where each provider's webhook is set: Telegram's by us, Meta's pasted into its App Dashboard.
const webhookHelp = {
	link: 'ui.webhookHelp',
	telegram: 'ui.telegramWebhookHelp',
	whatsapp: 'ui.webhookHelp',
	messenger: 'ui.pageWebhookHelp',
	facebook: 'ui.pageWebhookHelp',
	instagram: 'ui.instagramWebhookHelp',
} as const

export default function EditChannel() {
	const { title, locale, channel, settings, publicUrl, prefix } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	// Each form shows its own refusal only: the settings' (no intent), the credentials', the campaign rate's.
	const replyOf = (intent?: string) => (reply?.values.intent === intent ? reply : undefined)
	const { t } = useTranslation('channels')
	const pending = useNavigation().state === 'submitting'
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
			<section className={styles.section} aria-labelledby="edit-heading">
				<h2 id="edit-heading" className={styles.sectionTitle}>
					{channel.kind === 'link' ? t('ui.linkForm') : t(`ui.kinds.${channel.kind}`)}
				</h2>
				{channel.kind === 'link' ? (
					<LinkChannelForm
						values={{ name: channel.name, slug: channel.slug ?? '', enabled: channel.enabled, ...settings }}
						reply={replyOf()}
						prefix={prefix}
						submit={t('ui.save')}
						pending={pending}
					/>
				) : (
					<MessagingChannelForm channel={channel} reply={replyOf()} pending={pending} />
				)}
			</section>
			{channel.maskedCredentials && credentialFieldsOf(channel.kind).length ? (
				<section className={styles.section} aria-labelledby="credentials-heading">
					<h2 id="credentials-heading" className={styles.sectionTitle}>
						{t('ui.credentialsTitle')}
					</h2>
					<p className={styles.pageLead}>{t('ui.credentialsHelp')}</p>
					<ReplaceCredentialsForm kind={channel.kind} masked={channel.maskedCredentials} reply={replyOf('credentials')} pending={pending} />
				</section>
			) : null}
			<section className={styles.section} aria-labelledby="campaign-rate-heading">
				<h2 id="campaign-rate-heading" className={styles.sectionTitle}>
					{t('ui.campaignsTitle')}
				</h2>
				<CampaignRateForm channel={channel} reply={replyOf('campaignRate')} pending={pending} />
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
function MessagingChannelForm({ channel, reply, pending }: { channel: Pick<ChannelJson, 'name' | 'enabled' | 'settings'>; reply: Reply; pending: boolean }) {
	const { t } = useTranslation('channels')
	const { errorsOf, described, errorList } = fieldMessages(reply)
	const setting = (name: string) => (typeof channel.settings[name] === 'string' ? (channel.settings[name] as string) : null)
	const username = setting('botUsername') ?? setting('instagramUsername')
	const pageName = setting('pageName')
	return (
		<Form method="post" className={field.form} key={JSON.stringify(reply?.values ?? {})}>
			<input type="hidden" name="kind" value="messaging" />
			{reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			{username || pageName ? (
				<p className={field.help} dir="auto">
					{[pageName, username ? `@${username}` : null].filter(Boolean).join(' · ')}
				</p>
			) : null}
			<div className={field.field}>
				<label className={field.label} htmlFor="name">
					{t('ui.name')}
				</label>
				<input
					id="name"
					name="name"
					required
					maxLength={80}
					defaultValue={String(reply?.values.name ?? channel.name)}
					className={field.input}
					aria-invalid={errorsOf('name') ? true : undefined}
					aria-describedby={described('name')}
				/>
				{errorList('name')}
			</div>
			<label className={channelStyles.check}>
				<input type="checkbox" name="enabled" defaultChecked={typeof reply?.values.enabled === 'boolean' ? reply.values.enabled : channel.enabled} />
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
	reply,
	pending,
}: {
	channel: Pick<ChannelJson, 'kind' | 'campaignRatePerSecond' | 'kindRatePerSecond'>
	reply: Reply
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const { errorsOf, described, errorList } = fieldMessages(reply)
	const typed = reply?.values.intent === 'campaignRate' ? String(reply.values.campaignRatePerSecond ?? '') : null
	return (
		<Form method="post" className={field.form} key={typed ?? String(channel.campaignRatePerSecond)}>
			<input type="hidden" name="intent" value="campaignRate" />
			{reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			<div className={field.field}>
				<label className={field.label} htmlFor="campaignRatePerSecond">
					{t('ui.campaignRate')}
				</label>
				<input
					id="campaignRatePerSecond"
					name="campaignRatePerSecond"
					type="number"
					min={1}
					max={1000}
					step={1}
					inputMode="numeric"
					placeholder={String(channel.kindRatePerSecond)}
					defaultValue={typed ?? (channel.campaignRatePerSecond === null ? '' : String(channel.campaignRatePerSecond))}
					className={field.input}
					aria-invalid={errorsOf('campaignRatePerSecond') ? true : undefined}
					aria-describedby={described('campaignRatePerSecond', true)}
				/>
				<p id="campaignRatePerSecond-help" className={field.help}>
					{t('ui.campaignRateHelp', { rate: channel.kindRatePerSecond, kind: t(`ui.kinds.${channel.kind}`) })}
				</p>
				{errorList('campaignRatePerSecond')}
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
