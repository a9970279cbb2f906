import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ApiError, errorDetail } from '#app/.server/api.ts'
import { apiFailure, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { listOrToast, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { getWebhook, listDeliveries, resendDelivery, rollSecret, sendTestEvent, updateWebhook } from '#app/.server/webhooks.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { ToastMessage } from '#app/components/toaster.tsx'
import { webhooksPath } from '#app/components/webhooks/path.ts'
import { RolledSecret } from '#app/components/webhooks/shown-secret.tsx'
import { WebhookForm, WebhookStatus } from '#app/components/webhooks/webhook-form.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf, pageNotFound } from '#app/utils/http.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { type WebhookDeliveryJson } from '#common/webhooks.ts'
import { languageOf, type Locale } from '#locales/languages.ts'
import { webhookSchema } from './$lang.dashboard.settings.integrations.webhooks.schema.ts'
import * as styles from './dashboard.css.ts'
import { requireWebhooksManager } from './webhooks.server.ts'

export const handle = { i18n: ['webhooks'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireWebhooksManager(args)
	const subscriptionId = args.params.subscriptionId ?? ''
	const cursor = new URL(args.request.url).searchParams.get('cursor')
	const t = await serverT(locale)
	const webhook = await getWebhook(api, user.workspace.id, subscriptionId).catch(async (error: unknown) => {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		// Another refusal (a malformed id): the error screen with the API's words and status, not a 500.
		if (error instanceof ApiError && error.statusCode < 500 && error.statusCode !== 401)
			throw data({ message: errorDetail(error) }, { status: error.statusCode })
		return rethrowApiError(error, locale, args.request)
	})
	const { list: log, failure } = await listOrToast(
		listDeliveries(api, user.workspace.id, webhook.id, cursor),
		{ deliveries: [], nextCursor: null },
		{ locale, request: args.request, title: t('webhooks:logFailed') },
	)
	return { title: t('webhooks:title'), locale, timeZone: user.workspace.timezone ?? 'UTC', webhook, log, failure, paged: Boolean(cursor) }
}

/** Saves the form; sends a test event; sends a delivery again. A refusal is said beside its form, the form's values kept. */
export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireWebhooksManager(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const subscriptionId = args.params.subscriptionId ?? ''
	const here = `${webhooksPath(locale)}/${encodeURIComponent(subscriptionId)}`
	const intent = formData.get('intent')
	if (intent === 'roll') {
		try {
			// Not a redirect: the new secret is shown this once, in this answer.
			return data({ rolled: await rollSecret(api, user.workspace.id, subscriptionId) })
		} catch (error) {
			const { message, status } = await apiFailure(error, locale, request)
			return data({ refused: { intent, deliveryId: '', message } }, { status })
		}
	}
	if (intent === 'test' || intent === 'resend') {
		const deliveryId = String(formData.get('deliveryId') ?? '')
		try {
			if (intent === 'test') await sendTestEvent(api, user.workspace.id, subscriptionId)
			else await resendDelivery(api, user.workspace.id, subscriptionId, deliveryId)
		} catch (error) {
			const { message, status } = await apiFailure(error, locale, request)
			return data({ refused: { intent, deliveryId, message } }, { status })
		}
		return redirectWithToast(here, { type: 'success', title: t(intent === 'test' ? 'webhooks:test.sent' : 'webhooks:log.resent') })
	}
	const submission = parseWithZod(formData, { schema: webhookSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	try {
		await updateWebhook(api, user.workspace.id, subscriptionId, submission.value)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	return redirectWithToast(here, { type: 'success', title: t('webhooks:saved') })
}

export default function WebhookPage() {
	const { locale, timeZone, webhook, log, failure, paged } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('webhooks')
	const base = webhooksPath(locale)
	const refused = reply && 'refused' in reply ? reply.refused : null
	const rolled = reply && 'rolled' in reply ? reply.rolled : null
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={styles.pageHeader}>
				<Link to={base}>{t('title')}</Link>
				<h1 className={styles.pageTitle}>
					<bdi dir="ltr">{webhook.url}</bdi>
				</h1>
				<p className={styles.pageLead}>
					<WebhookStatus webhook={webhook} locale={locale} timeZone={timeZone} />
				</p>
			</div>
			<WebhookForm key={webhook.updatedAt} editing={webhook} lastResult={reply && 'result' in reply ? reply.result : undefined} cancel={base} />
			<div className={styles.actionsRow}>
				<Form method="post">
					<button type="submit" name="intent" value="test" className={button.outline}>
						{t('test.action')}
					</button>
				</Form>
				<Form method="post">
					<button type="submit" name="intent" value="roll" className={button.outline}>
						{t('secret.roll')}
					</button>
				</Form>
				<Link to={`${base}?delete=${webhook.id}`} className={button.outline}>
					{t('delete.action')}
				</Link>
			</div>
			{rolled ? <RolledSecret rolled={rolled} locale={locale} timeZone={timeZone} /> : null}
			{refused && refused.intent !== 'resend' ? (
				<p role="alert" className={fieldStyles.errors}>
					{refused.message}
				</p>
			) : null}
			<DeliveryLog
				locale={locale}
				timeZone={timeZone}
				deliveries={log.deliveries}
				nextCursor={log.nextCursor}
				paged={paged}
				refusal={refused?.intent === 'resend' ? refused : null}
			/>
		</>
	)
}

/** The webhook's deliveries, newest first: event, status, when, the answer (its code and first 1 KB), tries, and "send again". */
function DeliveryLog({
	locale,
	timeZone,
	deliveries,
	nextCursor,
	paged,
	refusal,
}: {
	locale: Locale
	timeZone: string
	deliveries: WebhookDeliveryJson[]
	nextCursor: string | null
	paged: boolean
	refusal: { deliveryId: string; message: string } | null
}) {
	const { t } = useTranslation('webhooks')
	const when = dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'medium', timeZone })
	return (
		<section className={styles.section} aria-labelledby="log-heading" id="log">
			<h2 id="log-heading" className={styles.sectionTitle}>
				{t('log.heading')}
			</h2>
			{deliveries.length ? (
				<div className={table.wrapper}>
					<table className={table.table}>
						<thead>
							<tr>
								<th className={table.th}>{t('log.event')}</th>
								<th className={table.th}>{t('log.status')}</th>
								<th className={table.th}>{t('log.time')}</th>
								<th className={table.th}>{t('log.response')}</th>
								<th className={table.th}>{t('log.attempts')}</th>
								<th className={table.th}>
									<span className="visually-hidden">{t('log.resend')}</span>
								</th>
							</tr>
						</thead>
						<tbody>
							{deliveries.map((delivery) => (
								<tr key={delivery.id} data-testid="webhook-delivery">
									<td className={table.td}>
										<details>
											<summary>{t(`events.${delivery.eventType}`)}</summary>
											<pre dir="ltr" className={styles.secret}>
												{delivery.payload}
											</pre>
										</details>
									</td>
									<td className={table.td}>
										{t(`deliveryStatus.${delivery.status}`)}
										{delivery.nextAttemptAt ? (
											<>
												<br />
												{t('log.nextAttempt', { at: when.format(new Date(delivery.nextAttemptAt)) })}
											</>
										) : null}
									</td>
									<td className={table.td}>
										<time dateTime={delivery.lastAttemptAt ?? delivery.createdAt}>{when.format(new Date(delivery.lastAttemptAt ?? delivery.createdAt))}</time>
									</td>
									<td className={table.td}>
										{delivery.responseStatus ?? t('log.noAnswer')}
										{delivery.error && delivery.responseStatus === null ? (
											<>
												{' '}
												— <bdi dir="ltr">{delivery.error}</bdi>
											</>
										) : null}
										{delivery.responseBody ? (
											<pre dir="auto" className={styles.secret}>
												{delivery.responseBody}
											</pre>
										) : null}
									</td>
									<td className={table.td}>{delivery.attempts}</td>
									<td className={table.td}>
										{delivery.status === 'pending' ? null : (
											<Form method="post">
												<input type="hidden" name="deliveryId" value={delivery.id} />
												<button type="submit" name="intent" value="resend" className={button.ghost}>
													{t('log.resend')}
												</button>
											</Form>
										)}
										{refusal?.deliveryId === delivery.id ? (
											<p role="alert" className={fieldStyles.errors}>
												{refusal.message}
											</p>
										) : null}
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : (
				<p className={table.empty}>{t('log.empty')}</p>
			)}
			<div className={styles.actionsRow}>
				{paged ? <Link to="?#log">{t('log.heading')}</Link> : null}
				{nextCursor ? <Link to={`?cursor=${encodeURIComponent(nextCursor)}#log`}>{t('log.older')}</Link> : null}
			</div>
		</section>
	)
}
