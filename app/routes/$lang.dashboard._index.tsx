import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorDetail, reportTargets, type MemberJson } from '#app/.server/api.ts'
import { listChannels } from '#app/.server/channels.ts'
import { listLabels } from '#app/.server/labels.ts'
import { firstMembers } from '#app/.server/members.ts'
import { getReport, getSatisfaction } from '#app/.server/reports.ts'
import { listTeams } from '#app/.server/teams.ts'
import { workspaceOverview } from '#app/.server/workspaces.ts'
import { newUserCookie } from '#app/.server/cookies.ts'
import { lastEvent } from '#app/.server/live.ts'
import { apiRefusal, rethrowApiError, requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Checklist } from '#app/components/home/checklist.tsx'
import { Report, ReportLead } from '#app/components/reports/report.tsx'
import { ReportFilters } from '#app/components/reports/report-filters.tsx'
import * as reports from '#app/components/reports/reports.css.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useLiveData } from '#app/realtime/use-workspace-events.ts'
import { reloadWhenStandingMoves } from '#app/utils/live-inbox.ts'
import { drawnSeries, reportApiQuery, reportQuery, reportSearch } from '#app/utils/reports.ts'
import { SatisfactionReport } from '#app/components/reports/satisfaction.tsx'
import * as styles from './dashboard.css.ts'
import { canManage } from '#common/roles.ts'

// The overview's counts, the conversations open now and the filters' labels; the other figures change with their roll-ups.
// The checklist's counts and the filters reload the page; conversations only when they move (reloadWhenStandingMoves).
export const handle = { i18n: ['reports'], live: ['contact.created', 'contact.deleted', 'contact.imported', 'contact.merged', 'label.'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const { workspace } = user
	const query = reportQuery(new URL(args.request.url).searchParams)
	const manages = canManage(workspace.role)
	const fail = (error: unknown) => rethrowApiError(error, locale, args.request)
	// Read before the figures: the events after it are what may move them.
	const since = await lastEvent(api, workspace.id)
	const [counts, channels, labels, teams, members, answer, satisfaction] = await Promise.all([
		workspaceOverview(api, workspace.id).catch(fail),
		listChannels(api, workspace.id).catch(fail),
		listLabels(api, workspace.id).catch(fail),
		listTeams(api, workspace.id).catch(fail),
		// Agents see their own work only: the API answers their own rows, the page offers no choice.
		manages ? firstMembers(api, workspace.id).catch(fail) : ([] as MemberJson[]),
		// A refused range or filter (a 400 or 422 in the user's language) is said above the form, which keeps what was asked.
		getReport(api, workspace.id, reportApiQuery(query)).then(
			(report) => ({ report: drawnSeries(report), problem: null }),
			async (error: unknown) => ({ report: null, problem: errorDetail(await apiRefusal(error, locale, args.request)) }),
		),
		// The same query: a refusal is the report's, said above; the surveys' figures are then left out.
		getSatisfaction(api, workspace.id, reportApiQuery(query)).catch(() => null),
	])
	const newUser = Boolean(await newUserCookie.parse(args.request.headers.get('Cookie')))
	const t = await serverT(locale)
	return {
		title: t('reports:title'),
		user,
		workspace,
		counts,
		newUser,
		locale,
		query,
		manages,
		channels: channels.map(({ id, name }) => ({ id, name })),
		labels: labels.map(({ id, title }) => ({ id, title })),
		teams: teams.map(({ id, name }) => ({ id, name })),
		members: members.map(({ userId, name }) => ({ userId, name })),
		targets: [...reportTargets],
		since,
		satisfaction,
		...answer,
	}
}

/** The workspace's reports, with the getting-started checklist above them until its steps are done. */
export default function Dashboard() {
	const loaded = useLoaderData<typeof loader>()
	const { user, workspace, counts, newUser, locale, manages, report, problem } = loaded
	useLiveData(loaded, loaded.since, null, reloadWhenStandingMoves)
	const { t } = useTranslation()
	const { t: tr, ready } = useTranslation('reports')
	// Reached by a link (the login's redirect) before the reports' words were loaded: they come in a moment.
	// Once shown, the reports stay, even while a later load of the namespace turns `ready` false.
	const [shown, setShown] = useState(ready)
	if (ready && !shown) setShown(true)
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{t(newUser ? 'overview.welcomeNew' : 'overview.welcome', { name: user.name })}</h1>
				<p className={styles.pageLead}>{t('overview.lead', { workspace: workspace.name })}</p>
			</div>
			<Checklist counts={counts} manages={manages} locale={locale} />
			{shown ? (
				<section className={reports.report} aria-labelledby="reports-heading">
					<div className={styles.pageHeader}>
						<h2 id="reports-heading" className={styles.pageTitle}>
							{tr('title')}
						</h2>
						{report ? <ReportLead report={report} /> : null}
					</div>
					<ReportFilters
						query={loaded.query}
						manages={manages}
						channels={loaded.channels}
						labels={loaded.labels}
						teams={loaded.teams}
						members={loaded.members}
						targets={loaded.targets}
						report={report}
					/>
					{problem ? (
						<div role="alert" className={reports.problem}>
							<strong>{tr('failed')}</strong> {problem}
						</div>
					) : null}
					{report ? <Report report={report} locale={locale} query={loaded.query} manages={manages} /> : null}
					{report && loaded.satisfaction ? (
						<SatisfactionReport
							satisfaction={loaded.satisfaction}
							exportHref={`/${locale}/dashboard/reports/export${reportSearch(loaded.query, { table: 'satisfaction' })}`}
						/>
					) : null}
				</section>
			) : (
				<p role="status">{t('app.loading')}</p>
			)}
		</>
	)
}
