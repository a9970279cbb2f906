import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { listAuditEvents } from '#app/.server/audit-log.ts'
import { firstMembers } from '#app/.server/members.ts'
import { listOrToast } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Pagination } from '#app/components/pagination.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Field, SelectField } from '#app/components/ui/field.tsx'
import { DataTable } from '#app/components/ui/data-table.tsx'
import * as table from '#app/components/ui/table.css.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { auditKinds, auditLineText } from '#common/audit.ts'
import { auditFilters, requireAuditReader } from './audit-log.server.ts'
import * as css from './audit-log.css.ts'
import * as styles from './dashboard.css.ts'

export const handle = { i18n: ['audit'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireAuditReader(args)
	const params = new URL(args.request.url).searchParams
	const filters = auditFilters(params)
	const t = await serverT(locale)
	const [{ list, failure }, members] = await Promise.all([
		listOrToast(
			listAuditEvents(api, user.workspace.id, { ...filters, page: params.get('page'), limit: 25 }),
			{ events: [], page: 1, limit: 25, total: 0, keptDays: 365 },
			{ locale, request: args.request, title: t('audit:loadFailed') },
		),
		// The people to filter by: today's members (someone who left is still named on their lines).
		firstMembers(api, user.workspace.id).then(
			(members) => members.map(({ userId, name }) => ({ userId, name })),
			() => [],
		),
	])
	return { title: t('audit:title'), locale, list, failure, filters, members }
}

export default function AuditLog() {
	const { title, locale, list, failure, filters, members } = useLoaderData<typeof loader>()
	const { t } = useTranslation('audit')
	const when = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const base = `/${locale}/dashboard/settings/audit-log`
	const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value)).toString()
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={table.toolbar}>
				<div className={styles.pageHeader}>
					<h1 className={styles.pageTitle}>{title}</h1>
					<p className={styles.pageLead}>{t('description', { days: list.keptDays, count: list.keptDays })}</p>
				</div>
				{/* A download, not a page: the browser saves what the server streams. */}
				<Link to={`${base}/export${query ? `?${query}` : ''}`} reloadDocument className={button.outline} download>
					{t('exportCsv')}
				</Link>
			</div>

			<Form method="get" className={css.filters} aria-label={t('filters.apply')}>
				<SelectField label={t('filters.actor')} select={{ id: 'audit-actor', name: 'actorId', defaultValue: filters.actorId }}>
					<option value="">{t('filters.anyone')}</option>
					{members.map((member) => (
						<option key={member.userId} value={member.userId}>
							{member.name}
						</option>
					))}
				</SelectField>
				<SelectField label={t('filters.kind')} select={{ id: 'audit-kind', name: 'kind', defaultValue: filters.kind }}>
					<option value="">{t('filters.anyKind')}</option>
					{auditKinds.map((kind) => (
						<option key={kind} value={kind}>
							{t(`kinds.${kind}`)}
						</option>
					))}
				</SelectField>
				<Field label={t('filters.from')} input={{ id: 'audit-from', type: 'date', name: 'from', defaultValue: filters.from }} />
				<Field label={t('filters.to')} input={{ id: 'audit-to', type: 'date', name: 'to', defaultValue: filters.to }} />
				<button type="submit" className={button.primary}>
					{t('filters.apply')}
				</button>
				{query ? (
					<Link to={base} className={button.ghost}>
						{t('filters.clear')}
					</Link>
				) : null}
			</Form>

			<DataTable
				caption={title}
				columns={[
					{ header: t('columns.when'), cell: (event) => <time dateTime={event.createdAt}>{when(event.createdAt)}</time> },
					{ header: t('columns.who'), cell: (event) => event.actor.name },
					{ header: t('columns.what'), cell: (event) => auditLineText(t, event) },
				]}
				rows={list.events}
				rowKey={(event) => event.id}
				rowProps={(event) => ({ 'data-kind': event.kind })}
				empty={t('empty')}
			/>
			<Pagination page={list.page} limit={list.limit} total={list.total} />
		</>
	)
}
