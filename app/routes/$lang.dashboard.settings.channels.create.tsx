import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type ChannelJson } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import * as channelStyles from '#app/components/channels/channels.css.ts'
import { channelKinds, KindIcon } from '#app/components/channels/kind-icon.tsx'
import { LinkChannelForm } from '#app/components/channels/link-channel-form.tsx'
import { ConnectChannelForm, type ConnectKind, connectKinds } from '#app/components/channels/connect-channel-form.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import { channelFormReply, linkChannelBody, linkFormValues, messagingChannelBody } from './$lang.dashboard.settings.channels.server.ts'
import * as styles from './dashboard.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

// The channels namespace loads with the page (before it hydrates), besides `common`.
export const handle = { i18n: ['channels'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale } = await requireUser(args)
	// Agents see the list; the API would refuse what they post here anyway.
	if (user.workspace.role === 'agent') throw redirect(`/${locale}/dashboard/settings/channels`)
	const t = await channelsT(locale)
	return { title: t('ui.createTitle'), locale, prefix: `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/${locale}/c/` }
}

export async function action(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(args.request)
	// Each kind's form says which it is; the reply goes back to that form.
	const posted = String(form.get('kind') ?? '')
	const kind = (connectKinds as string[]).includes(posted) ? (posted as ConnectKind) : 'link'
	const link = linkChannelBody(form)
	const messaging = kind === 'link' ? undefined : messagingChannelBody(kind, form)
	try {
		const { shown: _shown, ...body } = messaging ?? { shown: null, kind, ...link }
		const created = await api.post<ChannelJson>(`/workspaces/${user.workspace.id}/channels`, body)
		const t = await channelsT(locale)
		// Meta's webhooks (WhatsApp, Messenger, Facebook, Instagram) are pasted into its dashboard: the channel's page shows what to paste.
		const next = kind === 'link' || kind === 'telegram' ? `/${locale}/dashboard/settings/channels` : `/${locale}/dashboard/settings/channels/${created.id}`
		return redirectWithToast(next, { type: 'success', title: t('ui.created', { name: created.name }) })
	} catch (error) {
		return channelFormReply(error, messaging ? { kind, ...messaging.shown } : { kind, ...linkFormValues(link) }, locale, args.request)
	}
}

const emptyLink = { name: '', slug: '', enabled: true, greeting: '', awayMessage: '', askName: false, askEmail: false }

export default function CreateChannel() {
	const { title, locale, prefix } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('channels')
	const pending = useNavigation().state === 'submitting'
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>
					<Link to={`/${locale}/dashboard/settings/channels`}>{t('ui.back')}</Link>
				</p>
			</div>

			<section className={styles.section} aria-labelledby="kinds-heading">
				<h2 id="kinds-heading" className={styles.sectionTitle}>
					{t('ui.chooseKind')}
				</h2>
				<ul className={channelStyles.kinds}>
					{channelKinds.map((kind) => (
						<li key={kind}>
							<a href={`#${kind}-form`} className={channelStyles.kindAvailable}>
								<KindIcon kind={kind} />
								<span className={channelStyles.kindName}>{t(`ui.kinds.${kind}`)}</span>
								<span className={channelStyles.kindText}>{t(`ui.kindHelp.${kind}`)}</span>
								<span className={channelStyles.kindBadge}>{t('ui.available')}</span>
							</a>
						</li>
					))}
				</ul>
			</section>

			<section id="link-form" className={styles.section} aria-labelledby="link-form-heading">
				<h2 id="link-form-heading" className={styles.sectionTitle}>
					{t('ui.linkForm')}
				</h2>
				<LinkChannelForm values={emptyLink} reply={reply?.values.kind === 'link' ? reply : undefined} prefix={prefix} submit={t('ui.create')} pending={pending} />
			</section>

			{connectKinds.map((kind) => (
				<section key={kind} id={`${kind}-form`} className={styles.section} aria-labelledby={`${kind}-form-heading`}>
					<h2 id={`${kind}-form-heading`} className={styles.sectionTitle}>
						{t(`ui.${kind}Form`)}
					</h2>
					<ConnectChannelForm kind={kind} reply={reply?.values.kind === kind ? reply : undefined} pending={pending} />
				</section>
			))}
		</>
	)
}
