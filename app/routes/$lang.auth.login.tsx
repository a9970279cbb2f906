import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { api, ApiError } from '#app/.server/api.ts'
import { twoFactorCookie } from '#app/.server/cookies.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { invitationNotice } from '#app/.server/invitation.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { type Locale } from '#locales/languages.ts'
import { completeSignIn, requireVisitor } from '#app/.server/session.ts'
import { login, loginTwoFactor } from '#app/.server/auth.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { InvitationNotice } from '#app/components/invitation-notice.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field, FormErrors, PasswordField, formClass } from '#app/components/ui/field.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from '#app/components/card-page.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { schema, twoFactorSchema } from './$lang.auth.login.schema.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

const loadSchema = () => import('./$lang.auth.login.schema.ts').then((module) => module.schema)
const loadTwoFactorSchema = () => import('./$lang.auth.login.schema.ts').then((module) => module.twoFactorSchema)

/** What the API answers a right password when the user has two-step sign-in on. */
type Step = 'password' | 'code' | 'recovery'

async function readChallenge(request: Request): Promise<string | null> {
	const challenge: unknown = await twoFactorCookie.parse(request.headers.get('Cookie'))
	return typeof challenge === 'string' && challenge ? challenge : null
}

/** The login page at a step, keeping the redirect. */
function loginUrl(locale: string, options: { step?: 'two-factor'; method?: 'recovery'; redirect?: string }) {
	const query = new URLSearchParams()
	if (options.step) query.set('step', options.step)
	if (options.method) query.set('method', options.method)
	if (options.redirect) query.set('redirect', options.redirect)
	const search = query.toString()
	return `/${locale}/auth/login${search ? `?${search}` : ''}`
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const locale = await requireVisitor(args)
	const t = await serverT(locale)
	const { notice, headers } = await invitationNotice(args.request, api(args.request, args.context, args.params))
	// The second step shows only while its challenge lives (the cookie ends with it).
	const url = new URL(args.request.url)
	const challenge = url.searchParams.get('step') === 'two-factor' ? await readChallenge(args.request) : null
	const step: Step = challenge ? (url.searchParams.get('method') === 'recovery' ? 'recovery' : 'code') : 'password'
	return data({ title: t(step === 'password' ? 'auth.login.title' : 'twoFactor.login.title'), invitation: notice, step }, { headers })
}

/** The second step: the challenge of the cookie and a code; a dead challenge sends back to the password. */
async function secondStep(args: ActionFunctionArgs, formData: FormData, locale: Locale) {
	const { request, params, context } = args
	const submission = parseWithZod(formData, { schema: twoFactorSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	const clear = await twoFactorCookie.serialize('', { maxAge: 0 })
	const { redirect: redirectParam } = submission.value
	const challenge = await readChallenge(request)
	const t = await serverT(locale)
	const backToPassword = (title: string) =>
		redirectWithToast(loginUrl(locale, { redirect: redirectParam }), { type: 'error', title }, { headers: { 'Set-Cookie': clear } })
	if (!challenge) return backToPassword(t('twoFactor.login.expired'))
	const code = submission.value.method === 'code' ? { code: submission.value.code } : { recoveryCode: submission.value.recoveryCode }
	try {
		const auth = await loginTwoFactor(api(request, context, params), { challenge, ...code })
		const response = await completeSignIn(args, auth, { locale, redirect: redirectParam })
		response.headers.append('Set-Cookie', clear)
		return response
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 401) return backToPassword(error.message)
		return replyWithApiError(submission, error)
	}
}

export async function action(args: ActionFunctionArgs) {
	const { request, params, context } = args
	const locale = await requireLocale(request, params)
	const formData = await formOf(request)
	if (formData.get('intent') === 'two-factor') return secondStep(args, formData, locale)
	const submission = parseWithZod(formData, { schema })
	if (submission.status !== 'success') return replyInvalid(submission, { hideFields: ['password'] })
	const { redirect: redirectParam, ...credentials } = submission.value
	try {
		const auth = await login(api(request, context, params), credentials)
		if ('twoFactorRequired' in auth) {
			return redirect(loginUrl(locale, { step: 'two-factor', redirect: redirectParam }), {
				headers: { 'Set-Cookie': await twoFactorCookie.serialize(auth.challenge) },
			})
		}
		return await completeSignIn(args, auth, { locale, redirect: redirectParam })
	} catch (error) {
		return replyWithApiError(submission, error, { hideFields: ['password'] })
	}
}

export default function Login() {
	const { step } = useLoaderData<typeof loader>()
	return step === 'password' ? <PasswordStep /> : <CodeStep method={step} />
}

function PasswordStep() {
	const { title, invitation } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const [searchParams] = useSearchParams()
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadSchema, {
		id: 'login',
		lastResult,
	})
	const redirect = searchParams.get('redirect') ?? ''
	const keep = redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''
	return (
		<>
			<div>
				<h1 className={styles.title}>{title}</h1>
				<p className={styles.lead}>{t('auth.login.lead')}</p>
			</div>
			<InvitationNotice invitation={invitation} />
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<input type="hidden" name="redirect" value={redirect} />
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field label={t('auth.fields.email')} field={fields.email} type="email" autoComplete="email" required />
				<PasswordField label={t('auth.fields.password')} field={fields.password} autoComplete="current-password" result={lastResult} />
				<Link to="../forgot-password" relative="path" className={styles.link}>
					{t('auth.login.forgot')}
				</Link>
				<Button type="submit" disabled={pending}>
					{t('auth.login.submit')}
				</Button>
			</Form>
			<p className={styles.links}>
				<span>
					{t('auth.login.noAccount')}{' '}
					<Link to={`../signup${keep}`} relative="path" className={styles.link}>
						{t('auth.login.signUp')}
					</Link>
				</span>
			</p>
		</>
	)
}

/** The second step: a code field the phone fills in (`one-time-code`), or a recovery code. */
function CodeStep({ method }: { method: 'code' | 'recovery' }) {
	const { title } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const [searchParams] = useSearchParams()
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadTwoFactorSchema, { id: `two-factor-${method}`, lastResult })
	const redirect = searchParams.get('redirect') ?? ''
	const keep = redirect ? `&redirect=${encodeURIComponent(redirect)}` : ''
	const field = method === 'code' ? fields.code : fields.recoveryCode
	return (
		<>
			<div>
				<h1 className={styles.title}>{title}</h1>
				<p className={styles.lead}>{t(method === 'code' ? 'twoFactor.login.leadCode' : 'twoFactor.login.leadRecovery')}</p>
			</div>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<input type="hidden" name="intent" value="two-factor" />
				<input type="hidden" name="method" value={method} />
				<input type="hidden" name="redirect" value={redirect} />
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field
					label={t(method === 'code' ? 'twoFactor.fields.code' : 'twoFactor.fields.recoveryCode')}
					field={field}
					type="text"
					{...(method === 'code'
						? ({ autoComplete: 'one-time-code', inputMode: 'numeric', maxLength: 7 } as const)
						: ({ autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, maxLength: 40 } as const))}
					dir="ltr"
					required
					autoFocus
				/>
				<Button type="submit" disabled={pending}>
					{t('twoFactor.login.submit')}
				</Button>
			</Form>
			<p className={styles.links}>
				<Link to={method === 'code' ? `?step=two-factor&method=recovery${keep}` : `?step=two-factor${keep}`} className={styles.link}>
					{t(method === 'code' ? 'twoFactor.login.useRecovery' : 'twoFactor.login.useCode')}
				</Link>
				<Link to={redirect ? `?redirect=${encodeURIComponent(redirect)}` : '.'} className={styles.link}>
					{t('auth.backToLogin')}
				</Link>
			</p>
		</>
	)
}
