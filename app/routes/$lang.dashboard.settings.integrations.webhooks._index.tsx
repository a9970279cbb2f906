import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { confirmedDeletion, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { listOrToast } from '#app/.server/session.ts'
import { createWebhook, deleteWebhook, listWebhooks } from '#app/.server/webhooks.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { SettingsList } from '#app/components/settings-list.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { webhooksPath } from '#app/components/webhooks/path.ts'
import { ShownSecret } from '#app/components/webhooks/shown-secret.tsx'
import { WebhookForm, WebhookStatus } from '#app/components/webhooks/webhook-form.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { languageOf } from '#locales/languages.ts'
import { webhookSchema } from './$lang.dashboard.settings.integrations.webhooks.schema.ts'
import * as styles from './dashboard.css.ts'
import { requireWebhooksManager } from './webhooks.server.ts'

export const handle = { i18n: ['webhooks'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireWebhooksManager(args)
	const t = await serverT(locale)
	const { list: webhooks, failure } = await listOrToast(listWebhooks(api, user.workspace.id), [], {
		locale,
		request: args.request,
		title: t('webhooks:loadFailed'),
	})
	const deleteId = new URL(args.request.url).searchParams.get('delete')
	return {
		title: t('webhooks:title'),
		locale,
		timeZone: user.workspace.timezone ?? 'UTC',
		webhooks,
		failure,
		deleting: webhooks.find((webhook) => webhook.id === deleteId) ?? null,
	}
}

/** Adds a webhook (its secret shown once, in the answer), or deletes the one whose deletion was confirmed. */
export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireWebhooksManager(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const here = webhooksPath(locale)
	if (formData.get('intent') === 'delete') {
		const remove = () => deleteWebhook(api, user.workspace.id, String(formData.get('subscriptionId') ?? ''))
		return confirmedDeletion(remove, { locale, request, here, done: t('webhooks:delete.done'), goneIsDone: true })
	}
	const submission = parseWithZod(formData, { schema: webhookSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	try {
		const { webhook, secret } = await createWebhook(api, user.workspace.id, { ...submission.value, enabled: true })
		// Not a redirect: the secret is shown this once, in this answer, and kept nowhere else.
		return data({ created: { id: webhook.id, url: webhook.url, secret } })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
}

export default function Webhooks() {
	const { title, locale, timeZone, webhooks, failure, deleting } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('webhooks')
	const base = webhooksPath(locale)
	const created = reply && 'created' in reply ? reply.created : null
	const eventList = new Intl.ListFormat(languageOf(locale).tag, { type: 'unit', style: 'short' })
	return (
		<>
			<ToastMessage toast={failure} />
			<p>
				<Link to={`/${locale}/dashboard/settings/integrations`}>{t('back')}</Link>
			</p>
			<SettingsList
				title={title}
				lead={t('intro')}
				deletion={{
					asking: deleting && {
						title: t('delete.heading'),
						text: t('delete.explain'),
						fields: { intent: 'delete', subscriptionId: deleting.id },
						confirm: t('delete.action'),
					},
					error: reply && 'deleteError' in reply ? reply.deleteError : null,
					failedTitle: t('deleteFailed'),
					cancel: base,
				}}
				caption={t('list.heading')}
				columns={[
					{
						header: t('list.url'),
						cell: (webhook) => (
							<Link to={`${base}/${webhook.id}`} dir="ltr" className={styles.secret}>
								{webhook.url}
							</Link>
						),
					},
					{ header: t('list.events'), cell: (webhook) => eventList.format(webhook.events.map((event) => t(`events.${event}`))) },
					{ header: t('list.status'), cell: (webhook) => <WebhookStatus webhook={webhook} locale={locale} timeZone={timeZone} /> },
				]}
				rows={webhooks}
				rowKey={(webhook) => webhook.id}
				rowActions={(webhook) => ({
					edit: { to: `${base}/${webhook.id}`, label: t('list.open') },
					remove: { to: `${base}?delete=${webhook.id}`, label: t('delete.action') },
				})}
				empty={t('list.empty')}
			>
				{created ? <CreatedSecret created={created} base={base} /> : null}
				<WebhookForm key={created?.id ?? 'new'} lastResult={reply && 'result' in reply ? reply.result : undefined} />
			</SettingsList>
		</>
	)
}

/** The new webhook's secret, this once. */
function CreatedSecret({ created, base }: { created: { id: string; url: string; secret: string }; base: string }) {
	const { t } = useTranslation('webhooks')
	return (
		<ShownSecret secret={created.secret} lead={t('secret.once')}>
			<p className={fieldStyles.help}>{t('secret.hint')}</p>
			<p>
				<Link to={`${base}/${created.id}`}>
					{t('list.open')}: <bdi dir="ltr">{created.url}</bdi>
				</Link>
			</p>
		</ShownSecret>
	)
}
