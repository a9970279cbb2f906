import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { newUserCookie } from '#app/.server/cookies.ts'
import { rethrowApiError, requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import * as overview from './overview.css.ts'

type Overview = { members: number; pendingInvitations: number; contacts: number; channels: number }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const { workspace } = user
	const counts = await api.get<Overview>(`/workspaces/${workspace.id}/overview`).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const newUser = Boolean(await newUserCookie.parse(args.request.headers.get('Cookie')))
	const t = await serverT(locale)
	return { title: t('nav.overview'), user, workspace, counts, newUser, locale }
}

/** The workspace's overview: a getting-started checklist with live counts. */
export default function Overview() {
	const { user, workspace, counts, newUser, locale } = useLoaderData<typeof loader>()
	const { t } = useTranslation()
	const steps = [
		{ key: 'invite', done: counts.members > 1 || counts.pendingInvitations > 0, count: counts.members, to: workspace.role === 'agent' ? null : '/dashboard/settings/agents' },
		{ key: 'contacts', done: counts.contacts > 0, count: counts.contacts, to: '/dashboard/contacts' },
		{ key: 'channel', done: counts.channels > 0, count: counts.channels, to: null },
	] satisfies Array<{ key: string; done: boolean; count: number; to: string | null }>
	const done = steps.filter((step) => step.done).length
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{t(newUser ? 'overview.welcomeNew' : 'overview.welcome', { name: user.name })}</h1>
				<p className={styles.pageLead}>{t('overview.lead', { workspace: workspace.name })}</p>
			</div>
			<section className={styles.section} aria-labelledby="checklist-heading">
				<h2 id="checklist-heading" className={styles.sectionTitle}>
					{t('overview.checklist', { done, total: steps.length })}
				</h2>
				<ol className={overview.steps}>
					{steps.map((step) => (
						<li key={step.key} className={overview.step} data-done={step.done}>
							<span className={overview.mark} aria-hidden="true">
								{step.done ? '✓' : ''}
							</span>
							<div>
								<p className={overview.stepTitle}>
									{step.to ? <Link to={`/${locale}${step.to}`}>{t(`overview.steps.${step.key}.title`)}</Link> : t(`overview.steps.${step.key}.title`)}
									<span className="visually-hidden">{t(step.done ? 'overview.done' : 'overview.todo')}</span>
								</p>
								<p className={overview.stepText}>{t(`overview.steps.${step.key}.text`, { count: step.count })}</p>
							</div>
						</li>
					))}
				</ol>
			</section>
		</>
	)
}
