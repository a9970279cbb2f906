import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { automationPath } from '#app/components/automation/path.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { RuleForm } from '#app/components/automation/rule-form.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { requireAutomationManager, ruleChoices, saveRule } from './automation.server.ts'
import * as dashboard from './dashboard.css.ts'

export const handle = { i18n: ['automation'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const signedIn = await requireAutomationManager(args)
	const t = await serverT(signedIn.locale)
	return { title: t('automation:newTitle'), locale: signedIn.locale, ...(await ruleChoices(signedIn, args.request)) }
}

export const action = (args: ActionFunctionArgs) => saveRule(args, null)

export default function NewRule() {
	const { title, locale, choices, choicesFailure } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('automation')
	const base = automationPath(locale)
	return (
		<>
			<ToastMessage toast={choicesFailure} />
			<div className={dashboard.pageHeader}>
				<Link to={base}>{t('back')}</Link>
				<h1 className={dashboard.pageTitle}>{title}</h1>
				<p className={dashboard.pageLead}>{t('formLead')}</p>
			</div>
			<RuleForm id="rule-new" rule={null} choices={choices} lastResult={reply?.result} submit={t('create')} cancel={base} />
		</>
	)
}
