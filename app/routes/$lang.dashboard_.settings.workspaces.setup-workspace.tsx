import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { requireUser } from '#app/.server/session.ts'
import { timezones } from '#app/.server/timezones.ts'
import { createWorkspace } from '#app/.server/workspaces.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { CardPage } from '#app/components/card-page.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { WorkspaceForm } from '#app/components/workspace-form.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from '#app/components/card-page.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** The default layout: a signed-in user without a workspace creates their first one here. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale } = await requireUser(args, { workspace: 'optional' })
	if (user.workspace) throw redirect(`/${locale}/dashboard`)
	const t = await serverT(locale)
	return { title: t('workspaces.setup.title'), locale, timezones }
}

export async function action(args: ActionFunctionArgs) {
	return createWorkspace(args.request, await requireUser(args, { workspace: 'optional' }))
}

export default function SetupWorkspace() {
	const { title, locale, timezones } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const { t } = useTranslation()
	return (
		<CardPage locale={locale}>
			<div>
				<h1 className={styles.title}>{title}</h1>
				<p className={styles.lead}>{t('workspaces.setup.lead')}</p>
			</div>
			<WorkspaceForm lastResult={lastResult} locale={locale} timezones={timezones} submitLabel={t('workspaces.setup.submit')} />
			<Form method="post" action={`/${locale}/auth/logout`} className={styles.links}>
				<button type="submit" className={button.ghost}>
					{t('auth.logout')}
				</button>
			</Form>
		</CardPage>
	)
}
