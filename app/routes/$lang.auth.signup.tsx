import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { api } from '#app/.server/api.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { invitationNotice } from '#app/.server/invitation.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { completeSignIn, requireVisitor } from '#app/.server/session.ts'
import { register } from '#app/.server/auth.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { InvitationNotice } from '#app/components/invitation-notice.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field, FormErrors, PasswordField, formClass } from '#app/components/ui/field.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from '#app/components/card-page.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { schema } from './$lang.auth.signup.schema.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

const loadSchema = () => import('./$lang.auth.signup.schema.ts').then((module) => module.schema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const locale = await requireVisitor(args)
	const t = await serverT(locale)
	const { notice, headers } = await invitationNotice(args.request, api(args.request, args.context, args.params))
	return data({ title: t('auth.signup.title'), invitation: notice }, { headers })
}

export async function action(args: ActionFunctionArgs) {
	const { request, params, context } = args
	const locale = await requireLocale(request, params)
	const submission = parseWithZod(await formOf(request), { schema })
	if (submission.status !== 'success') return replyInvalid(submission, { hideFields: ['password'] })
	const { redirect, ...registration } = submission.value
	try {
		const auth = await register(api(request, context, params), { ...registration, locale })
		return await completeSignIn(args, auth, { locale, redirect, newUser: true })
	} catch (error) {
		return replyWithApiError(submission, error, { hideFields: ['password'] })
	}
}

export default function Signup() {
	const { title, invitation } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const [searchParams] = useSearchParams()
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadSchema, {
		id: 'signup',
		lastResult,
	})
	const redirect = searchParams.get('redirect') ?? ''
	return (
		<>
			<div>
				<h1 className={styles.title}>{title}</h1>
				<p className={styles.lead}>{t('auth.signup.lead')}</p>
			</div>
			<InvitationNotice invitation={invitation} />
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<input type="hidden" name="redirect" value={redirect} />
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field label={t('auth.fields.name')} field={fields.name} type="text" autoComplete="name" required />
				<Field label={t('auth.fields.email')} field={fields.email} type="email" autoComplete="email" required />
				<PasswordField
					label={t('auth.fields.password')}
					field={fields.password}
					autoComplete="new-password"
					help={t('auth.passwordHelp')}
					result={lastResult}
				/>
				<Button type="submit" disabled={pending}>
					{t('auth.signup.submit')}
				</Button>
			</Form>
			<p className={styles.links}>
				<span>
					{t('auth.signup.haveAccount')}{' '}
					<Link to={`../login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`} relative="path" className={styles.link}>
						{t('auth.signup.signIn')}
					</Link>
				</span>
			</p>
		</>
	)
}
