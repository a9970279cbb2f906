import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { api, ApiError } from '#app/.server/api.ts'
import { resetPassword, validateResetToken } from '#app/.server/auth.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { requireVisitor, signOutHeaders } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Button } from '#app/components/ui/button.tsx'
import { FormErrors, PasswordField, formClass } from '#app/components/ui/field.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from '#app/components/card-page.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { schema } from './$lang.auth.reset-password.schema.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

const loadSchema = () => import('./$lang.auth.reset-password.schema.ts').then((module) => module.schema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** The link's token decides: the form when it is valid, why not otherwise. */
export async function loader(args: LoaderFunctionArgs) {
	const { request, params, context } = args
	const token = new URL(request.url).searchParams.get('token')
	// The mailed link acts on its token, not on the session, so it opens even when signed in.
	const locale = token ? await requireLocale(request, params) : await requireVisitor(args)
	const t = await serverT(locale)
	const title = t('auth.reset.title')
	if (!token) return { title, token: null, invalid: t('auth.reset.missing') }
	try {
		await validateResetToken(api(request, context, params), token)
		return { title, token, invalid: null }
	} catch (error) {
		if (error instanceof ApiError && error.statusCode < 500) return { title, token: null, invalid: error.message }
		throw error
	}
}

export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const submission = parseWithZod(await formOf(request), { schema })
	if (submission.status !== 'success') return replyInvalid(submission, { hideFields: ['password', 'confirmPassword'] })
	try {
		await resetPassword(api(request, context, params), submission.value.token, submission.value.password)
	} catch (error) {
		return replyWithApiError(submission, error, { hideFields: ['password', 'confirmPassword'] })
	}
	const t = await serverT(locale)
	// The API signed every device out; this browser too.
	return redirectWithToast(`/${locale}/auth/login`, { type: 'success', title: t('auth.reset.done') }, { headers: await signOutHeaders() })
}

export default function ResetPassword() {
	const { title, token, invalid } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadSchema, {
		id: 'reset-password',
		lastResult,
	})
	return (
		<>
			<div>
				<h1 className={styles.title}>{title}</h1>
				{token ? <p className={styles.lead}>{t('auth.reset.lead')}</p> : null}
			</div>
			{token ? (
				<Form method="post" {...getFormProps(form)} className={formClass}>
					<input type="hidden" name="token" value={token} />
					<FormErrors id={form.errorId} errors={form.errors} />
					<PasswordField
						label={t('auth.fields.newPassword')}
						field={fields.password}
						autoComplete="new-password"
						help={t('auth.passwordHelp')}
						result={lastResult}
					/>
					<PasswordField label={t('auth.fields.confirmPassword')} field={fields.confirmPassword} autoComplete="new-password" result={lastResult} />
					<Button type="submit" disabled={pending}>
						{t('auth.reset.submit')}
					</Button>
				</Form>
			) : (
				<p role="alert" className={styles.notice}>
					{invalid}
				</p>
			)}
			<p className={styles.links}>
				{token ? null : (
					<Link to="../forgot-password" relative="path" className={styles.link}>
						{t('auth.reset.requestNew')}
					</Link>
				)}
				<Link to="../login" relative="path" className={styles.link}>
					{t('auth.backToLogin')}
				</Link>
			</p>
		</>
	)
}
