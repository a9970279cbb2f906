import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { requireUser } from '#app/.server/session.ts'
import { timezones } from '#app/.server/timezones.ts'
import { createWorkspace } from '#app/.server/workspaces.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { WorkspaceForm } from '#app/components/workspace-form.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { locale } = await requireUser(args, { twoFactor: 'optional' })
	const t = await serverT(locale)
	return { title: t('workspaces.create.title'), locale, timezones }
}

/** Creates a workspace; it becomes the current one. */
export async function action(args: ActionFunctionArgs) {
	return createWorkspace(args.request, await requireUser(args, { twoFactor: 'optional' }))
}

export default function CreateWorkspace() {
	const { title, locale, timezones } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const { t } = useTranslation()
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{t('workspaces.create.lead')}</p>
			</div>
			<section className={styles.section}>
				<WorkspaceForm lastResult={lastResult} locale={locale} timezones={timezones} submitLabel={t('workspaces.create.submit')} />
			</section>
		</>
	)
}
