import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { api } from '#app/.server/api.ts'
import { forgotPassword } from '#app/.server/auth.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { requireVisitor } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from '#app/components/card-page.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { schema } from './$lang.auth.forgot-password.schema.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

const loadSchema = () => import('./$lang.auth.forgot-password.schema.ts').then((module) => module.schema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const locale = await requireVisitor(args)
	const t = await serverT(locale)
	return { title: t('auth.forgot.title') }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
	await requireLocale(request, params)
	const submission = parseWithZod(await formOf(request), { schema })
	if (submission.status !== 'success') return replyInvalid(submission)
	try {
		await forgotPassword(api(request, context, params), submission.value.email)
	} catch (error) {
		return replyWithApiError(submission, error)
	}
	// Said on the page, in place of the form (issue 27: not a toast in a far corner); the same whether or not the address has an account.
	return data({ sent: submission.value.email })
}

export default function ForgotPassword() {
	const { title } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadSchema, { id: 'forgot-password', lastResult: reply && 'result' in reply ? reply.result : undefined })
	if (reply && 'sent' in reply) {
		return (
			<>
				<div role="status">
					<h1 className={styles.title}>{t('auth.forgot.sent')}</h1>
					<p className={styles.lead}>
						<strong>
							<bdi dir="ltr">{reply.sent}</bdi>
						</strong>
					</p>
					<p className={styles.lead}>{t('auth.forgot.sentDetail')}</p>
				</div>
				<p className={styles.links}>
					<Link to="../login" relative="path" className={styles.link}>
						{t('auth.backToLogin')}
					</Link>
					<Link to="." relative="path" className={styles.link}>
						{t('auth.forgot.again')}
					</Link>
				</p>
			</>
		)
	}
	return (
		<>
			<div>
				<h1 className={styles.title}>{title}</h1>
				<p className={styles.lead}>{t('auth.forgot.lead')}</p>
			</div>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field label={t('auth.fields.email')} field={fields.email} type="email" autoComplete="email" required />
				<Button type="submit" disabled={pending}>
					{t('auth.forgot.submit')}
				</Button>
			</Form>
			<p className={styles.links}>
				<Link to="../login" relative="path" className={styles.link}>
					{t('auth.backToLogin')}
				</Link>
			</p>
		</>
	)
}
