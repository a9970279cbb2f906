import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useSubmit } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { errorDetail, reportTargets, type Availability, type ChannelJson, type LabelJson, type ReportJson } from '#app/.server/api.ts'
import { newUserCookie } from '#app/.server/cookies.ts'
import { lastEvent } from '#app/.server/live.ts'
import { apiRefusal, rethrowApiError, requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { ChannelsChart, ConversationsChart, DataTable, FirstResponseChart, HeatmapChart, Table, type ChartText } from '#app/components/reports/charts.tsx'
import { figuresOf, type FigureKey } from '#app/components/reports/figures.ts'
import { formatCount, formatDay, formatDuration, formatHour, weekdayNames } from '#app/components/reports/format.ts'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { languageOf } from '#locales/languages.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useLiveData } from '#app/realtime/use-workspace-events.ts'
import { reloadWhenStandingMoves } from '#app/utils/live-inbox.ts'
import {
	drawnByWeek,
	drawnSeries,
	rangeDays,
	reportApiQuery,
	reportPresets,
	reportQuery,
	reportSearch,
	shownValue,
	type ReportTable,
} from '#app/utils/reports.ts'
import * as styles from './dashboard.css.ts'
import * as overview from './overview.css.ts'
import * as reports from './reports.css.ts'
import { canManage } from '#common/roles.ts'

type Overview = { members: number; pendingInvitations: number; contacts: number; channels: number }
type Member = { userId: string; name: string; availability: Availability }

// The overview's counts, the conversations open now and the filters' labels; the other figures change with their roll-ups.
// The checklist's counts and the filters reload the page; conversations only when they move (reloadWhenStandingMoves).
export const handle = { i18n: ['reports'], live: ['contact.created', 'contact.deleted', 'contact.imported', 'contact.merged', 'label.'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const { workspace } = user
	const base = `/workspaces/${workspace.id}`
	const query = reportQuery(new URL(args.request.url).searchParams)
	const manages = canManage(workspace.role)
	const fail = (error: unknown) => rethrowApiError(error, locale, args.request)
	// Read before the figures: the events after it are what may move them.
	const since = await lastEvent(api, workspace.id)
	const [counts, { channels }, { labels }, members, answer] = await Promise.all([
		api.get<Overview>(`${base}/overview`).catch(fail),
		api.get<{ channels: ChannelJson[] }>(`${base}/channels`).catch(fail),
		api.get<{ labels: LabelJson[] }>(`${base}/labels`).catch(fail),
		// Agents see their own work only: the API answers their own rows, the page offers no choice.
		manages ? api.get<{ members: Member[] }>(`${base}/members`, { limit: 100 }).then((list) => list.members, fail) : ([] as Member[]),
		// A refused range or filter (a 400 or 422 in the user's language) is said above the form, which keeps what was asked.
		api.get<ReportJson>(`${base}/reports`, reportApiQuery(query)).then(
			(report) => ({ report: drawnSeries(report), problem: null }),
			async (error: unknown) => ({ report: null, problem: errorDetail(await apiRefusal(error, locale, args.request)) }),
		),
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
		members: members.map(({ userId, name }) => ({ userId, name })),
		targets: [...reportTargets],
		since,
		...answer,
	}
}

/** The workspace's reports, with the getting-started checklist above them until its steps are done. */
export default function Dashboard() {
	const loaded = useLoaderData<typeof loader>()
	const { user, workspace, counts, newUser, locale, report, problem } = loaded
	useLiveData(loaded, loaded.since, null, reloadWhenStandingMoves)
	const { t } = useTranslation()
	const { t: tr, ready } = useTranslation('reports')
	// Reached by a link (the login's redirect) before the reports' words were loaded: they come in a moment.
	// Once shown, the reports stay, even while a later load of the namespace turns `ready` false.
	const [shown, setShown] = useState(ready)
	if (ready && !shown) setShown(true)
	const steps = [
		{
			key: 'invite',
			done: counts.members > 1 || counts.pendingInvitations > 0,
			count: counts.members,
			to: canManage(workspace.role) ? '/dashboard/settings/agents' : null,
		},
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
			{done < steps.length ? (
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
			) : null}
			{shown ? (
				<section className={reports.report} aria-labelledby="reports-heading">
					<div className={styles.pageHeader}>
						<h2 id="reports-heading" className={styles.pageTitle}>
							{tr('title')}
						</h2>
						{report ? <ReportLead report={report} /> : null}
					</div>
					<ReportFilters />
					{problem ? (
						<div role="alert" className={reports.problem}>
							<strong>{tr('failed')}</strong> {problem}
						</div>
					) : null}
					{report ? <Report report={report} /> : null}
				</section>
			) : (
				<p role="status">{t('app.loading')}</p>
			)}
		</>
	)
}

function ReportLead({ report }: { report: ReportJson }) {
	const { t, i18n } = useTranslation('reports')
	const lang = i18n.language
	return (
		<p className={styles.pageLead}>
			{t('lead', {
				from: formatDay(lang, report.range.from, { year: true }),
				to: formatDay(lang, report.range.to, { year: true }),
				timezone: report.timezone,
				days: formatCount(lang, rangeDays(report.range)),
				count: rangeDays(report.range),
			})}
		</p>
	)
}

/**
 * The period and the filters: one GET form with one Apply, that works without JavaScript and, with
 * it, applies each change at once. Choosing a period shows its dates; typing dates makes the period
 * custom (`reportQuery` reads which of the two the user changed from `shown`).
 */
function ReportFilters() {
	const { query, manages, channels, labels, members, targets, report } = useLoaderData<typeof loader>()
	const { t, i18n } = useTranslation('reports')
	const submit = useSubmit()
	const onChange = (event: FormEvent<HTMLFormElement>) => {
		const form = event.currentTarget
		const changed = event.target as HTMLInputElement | HTMLSelectElement
		const preset = form.elements.namedItem('preset')
		// Picking a date means a custom range; a date half typed waits for its other end.
		if (changed.type === 'date' && preset instanceof HTMLSelectElement) preset.value = 'custom'
		if (preset instanceof HTMLSelectElement && preset.value === 'custom') {
			const from = form.elements.namedItem('from') as HTMLInputElement | null
			const to = form.elements.namedItem('to') as HTMLInputElement | null
			if (!from?.value || !to?.value) return
		}
		void submit(form, { replace: true, preventScrollReset: true })
	}
	// A named period shows the days it covers; a custom range the dates asked for, kept when the API refuses them.
	const custom = query.preset === 'custom'
	const from = custom ? query.from : (report?.range.from ?? '')
	const to = custom ? query.to : (report?.range.to ?? '')
	return (
		<Form method="get" className={reports.filters} aria-label={t('form.name')} onChange={onChange} key={`${JSON.stringify(query)} ${from} ${to}`}>
			<input type="hidden" name="shown" value={shownValue(query.preset, from, to)} />
			<div className={reports.filter}>
				<label htmlFor="report-preset">{t('form.period')}</label>
				<select id="report-preset" name="preset" defaultValue={query.preset} className={input}>
					{reportPresets.map((preset) => (
						<option key={preset} value={preset}>
							{t(`form.presets.${preset}`)}
						</option>
					))}
				</select>
			</div>
			<div className={reports.filter}>
				<label htmlFor="report-from">{t('form.from')}</label>
				<input id="report-from" type="date" name="from" defaultValue={from} className={input} aria-describedby="report-dates-help" />
			</div>
			<div className={reports.filter}>
				<label htmlFor="report-to">{t('form.to')}</label>
				<input id="report-to" type="date" name="to" defaultValue={to} className={input} aria-describedby="report-dates-help" />
			</div>
			<div className={reports.filter}>
				<label htmlFor="report-channel">{t('form.channel')}</label>
				<select id="report-channel" name="channelId" defaultValue={query.channelId} className={input}>
					<option value="">{t('form.anyChannel')}</option>
					{channels.map((channel) => (
						<option key={channel.id} value={channel.id}>
							{channel.name}
						</option>
					))}
				</select>
			</div>
			{manages ? (
				<div className={reports.filter}>
					<label htmlFor="report-agent">{t('form.agent')}</label>
					<select id="report-agent" name="agentId" defaultValue={query.agentId} className={input}>
						<option value="">{t('form.anyAgent')}</option>
						{members.map((member) => (
							<option key={member.userId} value={member.userId}>
								{member.name}
							</option>
						))}
					</select>
				</div>
			) : null}
			<div className={reports.filter}>
				<label htmlFor="report-label">{t('form.label')}</label>
				<select id="report-label" name="labelId" defaultValue={query.labelId} className={input}>
					<option value="">{t('form.anyLabel')}</option>
					{labels.map((label) => (
						<option key={label.id} value={label.id}>
							{label.title}
						</option>
					))}
				</select>
			</div>
			<div className={reports.filter}>
				<label htmlFor="report-target">{t('form.target')}</label>
				<select id="report-target" name="target" defaultValue={query.target || String(report?.targetSeconds ?? '')} className={input}>
					{targets.map((seconds) => (
						<option key={seconds} value={seconds}>
							{formatDuration(i18n.language, seconds)}
						</option>
					))}
				</select>
			</div>
			<button type="submit" className={button.primary}>
				{t('form.apply')}
			</button>
			<p id="report-dates-help" className={reports.formHelp}>
				{t('form.datesHelp')}
			</p>
		</Form>
	)
}

function Report({ report }: { report: ReportJson }) {
	const { locale, query, manages } = useLoaderData<typeof loader>()
	const { t, i18n } = useTranslation('reports')
	const { t: commonT } = useTranslation()
	const lang = i18n.language
	const rtl = languageOf(locale).dir === 'rtl'
	const text = (id: string, title: string, description: string): ChartText => ({ id, title, description, lang, rtl })
	const day = (value: string) => formatDay(lang, value)
	const duration = (seconds: number | null) => (seconds === null ? '' : formatDuration(lang, seconds))
	const count = (value: number) => formatCount(lang, value)
	const exportHref = (table: ReportTable) => `/${locale}/dashboard/reports/export${reportSearch(query, { table })}`
	// A long range by week, each week under its first day (the charts' shape); its table names both ends.
	const byWeek = drawnByWeek(report.range)
	const series: ReportJson['daily'] = byWeek ? report.weekly.map(({ from, ...week }) => ({ day: from, ...week })) : report.daily
	const seriesTo = new Map(report.weekly.map((week) => [week.from, week.to]))
	const seriesName = (from: string) =>
		byWeek ? t('columns.weekRange', { from: formatDay(lang, from), to: formatDay(lang, seriesTo.get(from) ?? from) }) : formatDay(lang, from, { weekday: true })
	const seriesTable: ReportTable = byWeek ? 'weekly' : 'daily'
	const conversationsTitle = t(byWeek ? 'charts.conversations.titleWeekly' : 'charts.conversations.title')
	const firstResponseTitle = t(byWeek ? 'charts.firstResponse.titleWeekly' : 'charts.firstResponse.title')
	const seriesColumn = t(byWeek ? 'columns.week' : 'columns.day')

	const { figures } = report
	// The workspace-wide cards say so when a filter they cannot follow is on (an agent's own report is one).
	const { channelId, agentId, labelId } = report.filters
	const unfiltered = (key: FigureKey) =>
		key === 'newContacts' && (channelId || agentId || labelId)
			? 'newContacts'
			: (key === 'campaignSent' || key === 'campaignDelivered') && (agentId || labelId)
				? 'campaigns'
				: null
	const medianFirst = figures.firstResponse.median
	const busiestChannel = report.channels[0]
	const weekdays = weekdayNames(lang, 'long')
	const busiestHour = report.heatmap
		.flatMap((row, weekday) => row.map((value, hour) => ({ weekday, hour, value })))
		.reduce<{ weekday: number; hour: number; value: number } | null>((best, cell) => (cell.value > (best?.value ?? 0) ? cell : best), null)

	return (
		<>
			<section aria-labelledby="figures-heading">
				<h3 id="figures-heading" className="visually-hidden">
					{t('figures.title')}
				</h3>
				<ul className={reports.cards}>
					{figuresOf(report, lang).map((figure) => (
						<li key={figure.key} className={reports.card} data-figure={figure.key}>
							<span className={reports.cardLabel}>{t(`figures.${figure.key}`, { target: formatDuration(lang, report.targetSeconds) })}</span>
							<span className={reports.cardValue} data-value data-empty={figure.value === null}>
								{figure.value ?? t('figures.noValue')}
							</span>
							<span className={reports.cardChange} data-good={figure.good ?? undefined}>
								{figure.key === 'openNow'
									? t('figures.openNowHelp')
									: figure.change
										? t('figures.change', { change: figure.change, previous: figure.previous })
										: figure.previous && figure.previous !== figure.value
											? t('figures.previous', { previous: figure.previous })
											: t('figures.nothingBefore')}
							</span>
							{unfiltered(figure.key) ? (
								<span className={reports.cardNote} data-unfiltered>
									{t(`figures.unfiltered.${unfiltered(figure.key)}`)}
								</span>
							) : null}
						</li>
					))}
				</ul>
			</section>

			{byWeek ? <p className={reports.note}>{t('charts.byWeek')}</p> : null}
			<div className={reports.charts}>
				<ChartFrame
					id="chart-conversations"
					title={conversationsTitle}
					exportHref={exportHref(seriesTable)}
					legend={
						<ul className={reports.legend}>
							<li>
								<span className={`${reports.swatch} ${reports.opened}`} aria-hidden="true" />
								{t('charts.legend.opened')}
							</li>
							<li>
								<span className={`${reports.swatch} ${reports.resolved}`} aria-hidden="true" />
								{t('charts.legend.resolved')}
							</li>
						</ul>
					}
					chart={
						<ConversationsChart
							text={text(
								'chart-conversations',
								conversationsTitle,
								t('charts.conversations.description', {
									opened: count(figures.opened.value),
									resolved: count(figures.resolved.value),
									from: day(report.range.from),
									to: day(report.range.to),
								}),
							)}
							series={series}
						/>
					}
					table={{
						columns: [seriesColumn, t('columns.opened'), t('columns.resolved'), t('columns.messagesIn'), t('columns.messagesOut')],
						rows: series.map((entry) => ({
							key: entry.day,
							cells: [seriesName(entry.day), count(entry.opened), count(entry.resolved), count(entry.messagesIn), count(entry.messagesOut)],
						})),
					}}
				/>
				<ChartFrame
					id="chart-first-response"
					title={firstResponseTitle}
					exportHref={exportHref(seriesTable)}
					chart={
						<FirstResponseChart
							text={text(
								'chart-first-response',
								firstResponseTitle,
								medianFirst === null ? t('charts.firstResponse.none') : t('charts.firstResponse.description', { median: duration(medianFirst) }),
							)}
							series={series}
						/>
					}
					table={{
						columns: [seriesColumn, t('columns.firstResponse')],
						rows: series.map((entry) => ({ key: entry.day, cells: [seriesName(entry.day), duration(entry.firstResponseMedian)] })),
					}}
				/>
				<ChartFrame
					id="chart-channels"
					title={t('charts.channels.title')}
					exportHref={exportHref('channels')}
					chart={
						<ChannelsChart
							text={text(
								'chart-channels',
								t('charts.channels.title'),
								busiestChannel
									? t('charts.channels.description', { name: busiestChannel.name, total: count(busiestChannel.opened), count: busiestChannel.opened })
									: t('charts.channels.none'),
							)}
							channels={report.channels}
						/>
					}
					table={{
						columns: [t('columns.channel'), t('columns.opened'), t('columns.resolved'), t('columns.messagesIn'), t('columns.messagesOut')],
						rows: report.channels.map((channel) => ({
							key: channel.channelId,
							cells: [channel.name, count(channel.opened), count(channel.resolved), count(channel.messagesIn), count(channel.messagesOut)],
						})),
					}}
				/>
				<ChartFrame
					id="chart-heatmap"
					title={t('charts.heatmap.title')}
					exportHref={exportHref('heatmap')}
					chart={
						<HeatmapChart
							text={text(
								'chart-heatmap',
								t('charts.heatmap.title'),
								busiestHour
									? t('charts.heatmap.description', {
											day: weekdays[busiestHour.weekday],
											hour: formatHour(lang, busiestHour.hour),
											total: count(busiestHour.value),
											count: busiestHour.value,
										})
									: t('charts.heatmap.none'),
							)}
							heatmap={report.heatmap}
						/>
					}
					table={{
						columns: [t('columns.weekday'), ...Array.from({ length: 24 }, (_, hour) => formatHour(lang, hour))],
						rows: report.heatmap.map((row, weekday) => ({ key: String(weekday), cells: [weekdays[weekday], ...row.map(count)] })),
					}}
				/>
			</div>

			<section className={reports.chart} aria-labelledby="agents-heading">
				<div className={reports.chartHeader}>
					<h3 id="agents-heading" className={styles.sectionTitle}>
						{t('agents.title')}
					</h3>
					<ExportLink href={exportHref('agents')} title={t('agents.title')} />
				</div>
				{manages ? null : <p className={reports.note}>{t('agents.own')}</p>}
				{report.agents.length ? (
					<Table
						caption={t('agents.title')}
						columns={[
							t('columns.agent'),
							t('columns.assigned'),
							t('columns.replied'),
							t('columns.resolved'),
							t('columns.firstResponse'),
							t('columns.availability'),
						]}
						rows={report.agents.map((agent) => ({
							key: agent.userId,
							cells: [
								agent.name,
								count(agent.assigned),
								count(agent.replied),
								count(agent.resolved),
								duration(agent.firstResponseMedian),
								commonT(`availability.${agent.availability}`),
							],
						}))}
					/>
				) : (
					<p className={reports.note}>{t('agents.empty')}</p>
				)}
			</section>
		</>
	)
}

type TableData = { columns: string[]; rows: Array<{ key: string; cells: React.ReactNode[] }> }

/** A chart with its heading, legend, export link and the same numbers as a table. */
function ChartFrame({
	id,
	title,
	exportHref,
	legend,
	chart,
	table,
}: {
	id: string
	title: string
	exportHref: string
	legend?: React.ReactNode
	chart: React.ReactNode
	table: TableData
}) {
	const { t } = useTranslation('reports')
	return (
		<section className={reports.chart} aria-labelledby={`${id}-heading`}>
			<div className={reports.chartHeader}>
				<h3 id={`${id}-heading`} className={styles.sectionTitle}>
					{title}
				</h3>
				<ExportLink href={exportHref} title={title} />
			</div>
			{legend}
			{chart}
			<DataTable summary={t('charts.showTable')} caption={title} columns={table.columns} rows={table.rows} />
		</section>
	)
}

function ExportLink({ href, title }: { href: string; title: string }) {
	const { t } = useTranslation('reports')
	return (
		<a href={href} className={button.ghost}>
			{t('charts.export')}
			<span className="visually-hidden"> — {title}</span>
		</a>
	)
}
