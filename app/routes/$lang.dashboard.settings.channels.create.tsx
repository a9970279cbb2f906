import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { createChannel } from '#app/.server/channels.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import * as channelStyles from '#app/components/channels/channels.css.ts'
import { channelKinds, type Kind, KindIcon } from '#app/components/channels/kind-icon.tsx'
import { LinkChannelForm } from '#app/components/channels/link-channel-form.tsx'
import { ConnectChannelForm, type ConnectKind, connectKinds, secretFields } from '#app/components/channels/connect-channel-form.tsx'
import { connectChannelSchema } from '#app/components/channels/connect-channel-form.schema.ts'
import { linkChannelSchema } from '#app/components/channels/link-channel-form.schema.ts'
import { ApiChannelForm } from '#app/components/channels/api-channel-form.tsx'
import { apiChannelSchema } from '#app/components/channels/api-channel-form.schema.ts'
import { CopyButton } from '#app/components/channels/copy-button.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import { channelFieldOf, linkChannelBody, messagingChannelBody } from './$lang.dashboard.settings.channels.server.ts'
import * as styles from './dashboard.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage } from '#common/roles.ts'

// The channels namespace loads with the page (before it hydrates), besides `common`.
export const handle = { i18n: ['channels'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** The kind chosen in the URL (`?kind=telegram`), so that choosing works without JavaScript; none: the page offers the six. */
function chosenKind(request: Request): Kind | null {
	const asked = new URL(request.url).searchParams.get('kind')
	return channelKinds.find((kind) => kind === asked) ?? null
}

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale } = await requireUser(args)
	// Agents see the list; the API would refuse what they post here anyway.
	if (!canManage(user.workspace.role)) throw redirect(`/${locale}/dashboard/settings/channels`)
	const t = await channelsT(locale)
	const kind = chosenKind(args.request)
	return {
		title: kind ? `${t('ui.createTitle')}: ${t(`ui.kinds.${kind}`)}` : t('ui.createTitle'),
		locale,
		kind,
		prefix: `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/${locale}/c/`,
	}
}

export async function action(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(args.request)
	// Each kind's form says which it is; the reply goes back to that form.
	const posted = String(form.get('kind') ?? '')
	if (posted === 'api') return createApiChannel(args, form)
	const kind = (connectKinds as string[]).includes(posted) ? (posted as ConnectKind) : 'link'
	const submission = kind === 'link' ? parseWithZod(form, { schema: linkChannelSchema }) : parseWithZod(form, { schema: connectChannelSchema })
	// Secrets are never sent back to the page.
	const beside = { with: { kind }, hideFields: secretFields }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const body = 'kind' in submission.value ? messagingChannelBody(submission.value) : { kind: 'link', ...linkChannelBody(submission.value) }
	try {
		const created = await createChannel(api, user.workspace.id, body)
		const t = await channelsT(locale)
		// Meta's webhooks (WhatsApp, Messenger, Facebook, Instagram) are pasted into its dashboard: the channel's page shows what to paste.
		const next = kind === 'link' || kind === 'telegram' ? `/${locale}/dashboard/settings/channels` : `/${locale}/dashboard/settings/channels/${created.id}`
		return redirectWithToast(next, { type: 'success', title: t('ui.created', { name: created.name }) })
	} catch (error) {
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request }, fieldOf: channelFieldOf })
	}
}

/**
 * An API channel: created, then this page again with its signing secret, shown this once (not
 * kept in a redirect's URL or cookie); a refusal beside its fields, with what was typed.
 */
async function createApiChannel(args: ActionFunctionArgs, form: FormData) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(form, { schema: apiChannelSchema })
	const beside = { with: { kind: 'api' as const } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const { name, callbackUrl } = submission.value
	try {
		const created = await createChannel(api, user.workspace.id, { kind: 'api', name, settings: { callbackUrl } })
		const t = await channelsT(locale)
		const next = `/${locale}/dashboard/settings/channels/${created.id}`
		if (!created.secret) return redirectWithToast(next, { type: 'success', title: t('ui.created', { name: created.name }) })
		return data({ kind: 'api' as const, created: { id: created.id, name: created.name, secret: created.secret } })
	} catch (error) {
		return replyWithApiError(submission, error, { ...beside, signedIn: { locale, request: args.request }, fieldOf: channelFieldOf })
	}
}

export default function CreateChannel() {
	const { title, locale, kind, prefix } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('channels')
	const pending = useNavigation().state === 'submitting'
	const base = `/${locale}/dashboard/settings/channels`
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{kind ? t('ui.createTitle') : title}</h1>
				<p className={styles.pageLead}>
					<Link to={base}>{t('ui.back')}</Link>
				</p>
			</div>

			{kind ? (
				<section id={`${kind}-form`} className={styles.section} aria-labelledby={`${kind}-form-heading`}>
					<div className={channelStyles.chosen}>
						<KindIcon kind={kind} />
						<h2 id={`${kind}-form-heading`} className={styles.sectionTitle}>
							{t(`ui.${kind}Form`)}
						</h2>
						<Link to={`${base}/create`} className={channelStyles.otherKind}>
							{t('ui.otherKind')}
						</Link>
					</div>
					{/* A refusal is shown with the form it came from; the URL keeps the kind. */}
					{reply && 'created' in reply ? (
						<ApiChannelCreated {...reply.created} base={base} />
					) : kind === 'api' ? (
						<ApiChannelForm result={reply?.kind === 'api' && 'result' in reply ? reply.result : undefined} pending={pending} />
					) : kind === 'link' ? (
						<LinkChannelForm
							id="link"
							values={{ enabled: true }}
							result={reply?.kind === 'link' && 'result' in reply ? reply.result : undefined}
							prefix={prefix}
							submit={t('ui.create')}
							pending={pending}
						/>
					) : (
						<ConnectChannelForm key={kind} kind={kind} result={reply?.kind === kind && 'result' in reply ? reply.result : undefined} pending={pending} />
					)}
				</section>
			) : (
				<section className={styles.section} aria-labelledby="kinds-heading">
					<h2 id="kinds-heading" className={styles.sectionTitle}>
						{t('ui.chooseKind')}
					</h2>
					<ul className={channelStyles.kinds}>
						{channelKinds.map((each) => (
							<li key={each}>
								<Link to={`${base}/create?kind=${each}`} className={channelStyles.kindAvailable}>
									<KindIcon kind={each} />
									<span className={channelStyles.kindName}>{t(`ui.kinds.${each}`)}</span>
									<span className={channelStyles.kindText}>{t(`ui.kindHelp.${each}`)}</span>
								</Link>
							</li>
						))}
					</ul>
				</section>
			)}
		</>
	)
}

/** A new API channel's signing secret, shown this once, with a copy button; readonly, so it can be selected without JavaScript. */
function ApiChannelCreated({ id, name, secret, base }: { id: string; name: string; secret: string; base: string }) {
	const { t } = useTranslation('channels')
	return (
		<div role="status" className={channelStyles.created}>
			<p className={styles.sectionTitle} dir="auto">
				<bdi>{name}</bdi>
			</p>
			<p>{t('api.createdTitle')}</p>
			<label htmlFor="api-secret" className={channelStyles.createdLabel}>
				{t('api.secretLabel')}
			</label>
			<p className={channelStyles.address}>
				<input id="api-secret" readOnly value={secret} dir="ltr" aria-describedby="api-secret-help" className={channelStyles.secret} />
				<CopyButton text={secret} label={t('ui.copy')} copiedLabel={t('ui.copied')} accessibleName={t('ui.copyLabel', { name: t('api.secretLabel') })} />
			</p>
			<p id="api-secret-help" className={styles.pageLead}>
				{t('api.secretHelp')}
			</p>
			<p>
				<Link to={`${base}/${id}`}>{t('api.openChannel')}</Link>
			</p>
		</div>
	)
}
