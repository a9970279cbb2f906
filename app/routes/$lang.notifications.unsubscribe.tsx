import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { api } from '#app/.server/api.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { previewUnsubscribe, unsubscribe } from '#app/.server/unsubscribe.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { CardPage } from '#app/components/card-page.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { IsolatedText } from '#app/components/ui/isolated-text.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as card from '#app/components/card-page.css.ts'
import { type NotificationKind } from '#common/notifications.ts'

export const handle = { i18n: ['notifications'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/**
 * A notification mail's "stop these e-mails" link, no sign-in needed (the token is signed): it
 * shows what it would turn off and a button. Opening it changes nothing: mail scanners open links.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
	const locale = await requireLocale(request, params)
	const t = await serverT(locale)
	const title = t('notifications:mail.unsubscribe.title')
	const token = new URL(request.url).searchParams.get('token') ?? ''
	if (!token) return data({ title, locale, token, preview: null, problem: t('notifications:mail.unsubscribe.missing') }, { status: 400 })
	try {
		const preview = await previewUnsubscribe(api(request, context, params), token)
		return data({ title, locale, token, preview, problem: null })
	} catch (error) {
		const failed = await apiFailure(error, locale, request)
		return data({ title, locale, token, preview: null, problem: failed.message }, { status: failed.status })
	}
}

export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const token = (await formOf(request)).get('token')
	if (typeof token !== 'string' || !token) {
		const t = await serverT(locale)
		return data({ done: null, problem: t('notifications:mail.unsubscribe.missing') }, { status: 400 })
	}
	try {
		return data({ done: await unsubscribe(api(request, context, params), token), problem: null })
	} catch (error) {
		const failed = await apiFailure(error, locale, request)
		return data({ done: null, problem: failed.message }, { status: failed.status })
	}
}

export default function Unsubscribe() {
	const { title, locale, token, preview, problem } = useLoaderData<typeof loader>()
	const result = useKeptActionData<typeof action>()
	const pending = useNavigation().state === 'submitting'
	const { t } = useTranslation()
	const settings = `/${locale}/dashboard/notifications/settings`
	const done = result?.done
	const shown = done ?? preview
	const failure = result?.problem ?? problem
	return (
		<CardPage locale={locale}>
			<h1 className={card.title}>{title}</h1>
			{done ? (
				<p role="status" className={card.lead}>
					<IsolatedText i18nKey="notifications:mail.unsubscribe.done" names={{ workspace: done.workspace.name }} />
				</p>
			) : shown ? (
				<p className={card.lead}>
					<IsolatedText i18nKey="notifications:mail.unsubscribe.lead" names={{ workspace: shown.workspace.name }} />
				</p>
			) : null}
			{shown ? <KindList kinds={shown.kinds} /> : null}
			{failure ? (
				<p role="alert" className={card.notice}>
					{failure}
				</p>
			) : null}
			{preview && !done ? (
				<Form method="post" className={card.links}>
					<input type="hidden" name="token" value={token} />
					<p>{t('notifications:mail.unsubscribe.note')}</p>
					<Button type="submit" disabled={pending}>
						{t('notifications:mail.unsubscribe.submit')}
					</Button>
				</Form>
			) : null}
			<p className={card.links}>
				<Link to={settings} className={card.link}>
					{t('notifications:mail.unsubscribe.settings')}
				</Link>
			</p>
		</CardPage>
	)
}

function KindList({ kinds }: { kinds: NotificationKind[] }) {
	const { t } = useTranslation()
	return (
		<ul>
			{kinds.map((kind) => (
				<li key={kind}>{t(`notifications:kindNames.${kind}`)}</li>
			))}
		</ul>
	)
}
