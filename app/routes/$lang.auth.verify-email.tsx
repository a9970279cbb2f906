import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { api, ApiError } from '#app/.server/api.ts'
import { verifyEmail } from '#app/.server/auth.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { readToken, requireVisitor } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Button } from '#app/components/ui/button.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from '#app/components/card-page.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { request, params } = args
	const token = new URL(request.url).searchParams.get('token')
	// The mailed link acts on its token, so it opens signed in too (sign-up signs the user in).
	const locale = token ? await requireLocale(request, params) : await requireVisitor(args)
	const t = await serverT(locale)
	return { title: t('auth.verify.title'), token }
}

/** Verifying changes data, so it is a POST: the page submits it (by itself when JavaScript runs). */
export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const token = (await formOf(request)).get('token')
	const t = await serverT(locale)
	if (typeof token !== 'string' || !token) return data({ error: t('auth.verify.missing') }, { status: 400 })
	try {
		await verifyEmail(api(request, context, params), token)
	} catch (error) {
		if (error instanceof ApiError && error.statusCode < 500) return data({ error: error.message }, { status: error.statusCode })
		throw error
	}
	const next = (await readToken(request)) ? `/${locale}/dashboard` : `/${locale}/auth/login`
	return redirectWithToast(next, { type: 'success', title: t('auth.verify.done') })
}

export default function VerifyEmail() {
	const { title, token } = useLoaderData<typeof loader>()
	const result = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const navigation = useNavigation()
	const submit = useSubmit()
	const form = useRef<HTMLFormElement>(null)
	const submitted = useRef(false)
	useEffect(() => {
		if (!token || submitted.current || !form.current) return
		submitted.current = true
		submit(form.current)
	}, [token, submit])

	const error = result?.error ?? (token ? null : t('auth.verify.missing'))
	return (
		<>
			<div>
				<h1 className={styles.title}>{title}</h1>
				{error ? null : <p className={styles.lead}>{t('auth.verify.lead')}</p>}
			</div>
			{error ? (
				<p role="alert" className={styles.notice}>
					{error}
				</p>
			) : (
				<Form method="post" ref={form} className={styles.links}>
					<input type="hidden" name="token" value={token ?? ''} />
					<Button type="submit" disabled={navigation.state !== 'idle'}>
						{t('auth.verify.submit')}
					</Button>
				</Form>
			)}
			<p className={styles.links}>
				<Link to="../login" relative="path" className={styles.link}>
					{t('auth.backToLogin')}
				</Link>
			</p>
		</>
	)
}
