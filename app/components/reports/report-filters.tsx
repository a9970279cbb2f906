import { Form, useSubmit } from '@remix-run/react'
import { type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { AnyOfFilter } from '#app/components/ui/any-of-filter.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { reportPresets, shownValue, type ReportJson, type ReportQuery } from '#app/utils/reports.ts'
import { formatDuration } from './format.ts'
import * as reports from './reports.css.ts'

/**
 * The period and the filters: one GET form with one Apply, that works without JavaScript and, with
 * it, applies each change at once. Choosing a period shows its dates; typing dates makes the period
 * custom (`reportQuery` reads which of the two the user changed from `shown`).
 */
export function ReportFilters({
	query,
	manages,
	channels,
	labels,
	teams,
	members,
	targets,
	report,
}: {
	query: ReportQuery
	/** Only managers choose an agent: an agent's report is their own. */
	manages: boolean
	channels: Array<{ id: string; name: string }>
	labels: Array<{ id: string; title: string }>
	teams: Array<{ id: string; name: string }>
	members: Array<{ userId: string; name: string }>
	/** The first-response targets offered, in seconds. */
	targets: readonly number[]
	/** The report shown, whose days a named period shows; null when the API refused the range or a filter. */
	report: ReportJson | null
}) {
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
			<AnyOfFilter
				className={reports.filter}
				id="report-channel"
				label={t('form.channel')}
				name="channelId"
				value={query.channelId}
				any={t('form.anyChannel')}
				choices={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
			/>
			{manages ? (
				<AnyOfFilter
					className={reports.filter}
					id="report-agent"
					label={t('form.agent')}
					name="agentId"
					value={query.agentId}
					any={t('form.anyAgent')}
					choices={members.map((member) => ({ value: member.userId, label: member.name }))}
				/>
			) : null}
			<AnyOfFilter
				className={reports.filter}
				id="report-label"
				label={t('form.label')}
				name="labelId"
				value={query.labelId}
				any={t('form.anyLabel')}
				choices={labels.map((label) => ({ value: label.id, label: label.title }))}
			/>
			<AnyOfFilter
				className={reports.filter}
				id="report-team"
				label={t('form.team')}
				name="teamId"
				value={query.teamId}
				any={t('form.anyTeam')}
				choices={teams.map((team) => ({ value: team.id, label: team.name }))}
			/>
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
			<div className={reports.filter}>
				<label htmlFor="report-hours">{t('form.hours')}</label>
				<select id="report-hours" name="hours" defaultValue={report?.hours ?? (query.hours === 'business' ? 'business' : 'calendar')} className={input}>
					{(['calendar', 'business'] as const).map((hours) => (
						<option key={hours} value={hours}>
							{t(`form.hoursOptions.${hours}`)}
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
