import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ApiError, errorDetail } from '#app/.server/api.ts'
import { getRule, listRuns } from '#app/.server/automation.ts'
import { listOrToast, rethrowApiError } from '#app/.server/session.ts'
import { automationPath } from '#app/components/automation/path.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { RuleForm } from '#app/components/automation/rule-form.tsx'
import { formOfRule } from '#app/components/automation/rule-form.schema.ts'
import { RunLog } from '#app/components/automation/run-log.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { IsolatedText } from '#app/components/ui/isolated-text.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { pageNotFound } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { requireAutomationManager, ruleChoices, saveRule } from './automation.server.ts'
import * as dashboard from './dashboard.css.ts'

export const handle = { i18n: ['automation'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const signedIn = await requireAutomationManager(args)
	const { user, locale, api } = signedIn
	const ruleId = args.params.ruleId ?? ''
	const cursor = new URL(args.request.url).searchParams.get('cursor')
	const t = await serverT(locale)
	const rule = await getRule(api, user.workspace.id, ruleId).catch(async (error: unknown) => {
		if (error instanceof ApiError && error.statusCode === 404) pageNotFound(args.request)
		// Another refusal (a malformed id): the error screen with the API's words and status, not a 500.
		if (error instanceof ApiError && error.statusCode < 500 && error.statusCode !== 401)
			throw data({ message: errorDetail(error) }, { status: error.statusCode })
		return rethrowApiError(error, locale, args.request)
	})
	const [{ choices, choicesFailure }, { list: runs, failure: runsFailure }] = await Promise.all([
		ruleChoices(signedIn, args.request),
		listOrToast(
			listRuns(api, user.workspace.id, rule.id, cursor),
			{ runs: [], nextCursor: null },
			{ locale, request: args.request, title: t('automation:runs.loadFailed') },
		),
	])
	return {
		title: t('automation:editTitle', { name: rule.name }),
		locale,
		timeZone: user.workspace.timezone ?? 'UTC',
		rule,
		// The form's shape of the rule, made here: its module holds the schema, which the page loads later.
		form: formOfRule(rule),
		choices,
		failure: choicesFailure ?? runsFailure,
		runs,
		paged: Boolean(cursor),
	}
}

export const action = (args: ActionFunctionArgs) => saveRule(args, args.params.ruleId ?? '')

export default function EditRule() {
	const { locale, timeZone, rule, form, choices, failure, runs, paged } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('automation')
	const base = automationPath(locale)
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={dashboard.pageHeader}>
				<Link to={base}>{t('back')}</Link>
				<h1 className={dashboard.pageTitle}>
					<IsolatedText i18nKey="automation:editTitle" names={{ name: rule.name }} />
				</h1>
				<p className={dashboard.pageLead}>{t('formLead')}</p>
			</div>
			<RuleForm key={rule.updatedAt} id={`rule-${rule.id}`} rule={form} choices={choices} lastResult={reply?.result} submit={t('save')} cancel={base} />
			<div className={dashboard.actionsRow}>
				<Link to={`${base}?delete=${rule.id}`} className={button.outline}>
					{t('deleteTitle', { name: rule.name })}
				</Link>
			</div>
			<RunLog locale={locale} timeZone={timeZone} runs={runs.runs} nextCursor={runs.nextCursor} paged={paged} />
		</>
	)
}
