import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { apiRefusal, listOrToast, refusalToast, requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { LabelChip } from '#app/components/label-chip.tsx'
import { list as chips } from '#app/components/label-chip.css.ts'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { contactQuery, type Contact, type ContactPage, type ContactQuery, type ContactSort } from '#app/utils/contacts.ts'
import { type Label } from '#app/utils/labels.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import * as contacts from './contacts.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'

type ImportResult = { created: number; updated: number; rejected: Array<{ row: number; field?: string; reason: string }> }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const query = contactQuery(url.searchParams)
	const base = `/workspaces/${user.workspace.id}`
	const t = await serverT(locale)
	const selectedId = url.searchParams.get('contact')
	// A search with very many matches says "more than 20000" unless the user asks for the exact number.
	const countAll = url.searchParams.get('count') === 'exact'
	const [{ list: page, failure }, { labels }, selected] = await Promise.all([
		listOrToast(api.get<ContactPage>(`${base}/contacts`, { ...query, limit: 25, count: countAll ? 'exact' : undefined }), { contacts: [], nextCursor: null, total: 0, totalCapped: false } as ContactPage, {
			locale,
			request: args.request,
			title: t('contacts.loadFailed'),
		}),
		api.get<{ labels: Label[] }>(`${base}/labels`).catch((error: unknown) => rethrowApiError(error, locale, args.request)),
		selectedId ? api.get<Contact>(`${base}/contacts/${selectedId}`).catch(() => null) : null,
	])
	return {
		title: t('contacts.title'),
		locale,
		query,
		page,
		labels,
		selected,
		confirmDelete: url.searchParams.has('delete'),
		confirmOptIn: url.searchParams.has('optIn'),
		confirmMerge: url.searchParams.get('merge'),
		manages: user.workspace.role !== 'agent',
		failure,
	}
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	const intent = String(formData.get('intent') ?? '')
	const t = await serverT(locale)
	const base = `/workspaces/${user.workspace.id}/contacts`
	// The list's query as the page had it, parsed again (a posted value is no path nor header text of its
	// own), and only when it fits in a Location header.
	const kept = new URLSearchParams(String(formData.get('search') ?? '')).toString()
	const back = `/${locale}/dashboard/contacts${kept && kept.length <= 2000 ? `?${kept}` : ''}`

	if (intent === 'import') {
		const file = formData.get('file')
		if (!(file instanceof File) || file.size === 0) return data({ intent: 'import' as const, problem: t('contacts.import.noFile'), result: null }, { status: 400 })
		try {
			const result = await api.postText<ImportResult>(`${base}/import`, await file.text(), 'text/csv; charset=utf-8')
			return data({ intent: 'import' as const, problem: null, result })
		} catch (error) {
			const refused = await apiRefusal(error, locale, request)
			return data({ intent: 'import' as const, problem: refused.message, result: null }, { status: refused.statusCode })
		}
	}

	if (intent === 'opt-in') {
		const contactId = String(formData.get('contactId') ?? '')
		const name = String(formData.get('name') ?? '')
		const shown = `/${locale}/dashboard/contacts?contact=${encodeURIComponent(contactId)}`
		try {
			await api.post(`${base}/${encodeURIComponent(contactId)}/opt-in`)
		} catch (error) {
			return refusalToast(error, { locale, request, to: shown, title: t('contacts.optInFailed') })
		}
		return redirectWithToast(shown, { type: 'success', title: t('contacts.optedIn', { name }) })
	}

	if (intent === 'merge') {
		const contactId = String(formData.get('contactId') ?? '')
		const into = String(formData.get('into') ?? '')
		try {
			const merged = await api.post<Contact>(`${base}/${encodeURIComponent(contactId)}/merge`, { into })
			return redirectWithToast(`/${locale}/dashboard/contacts?contact=${encodeURIComponent(merged.id)}`, { type: 'success', title: t('contacts.merge.done', { name: String(formData.get('name') ?? ''), into: merged.name }) })
		} catch (error) {
			return refusalToast(error, { locale, request, to: `/${locale}/dashboard/contacts?contact=${encodeURIComponent(contactId)}`, title: t('contacts.merge.failed') })
		}
	}

	if (intent === 'delete') {
		try {
			await api.delete(`${base}/${encodeURIComponent(String(formData.get('contactId') ?? ''))}`)
		} catch (error) {
			return refusalToast(error, { locale, request, to: back, title: t('contacts.deleteFailed') })
		}
		return redirectWithToast(back, { type: 'success', title: t('contacts.deleted', { name: String(formData.get('name') ?? '') }) })
	}

	// Bulk actions on the ticked rows; deleting asks once more (`confirmed`).
	const contactIds = formData.getAll('contactIds').map(String)
	const bulkAction = String(formData.get('bulkAction') ?? '')
	if (contactIds.length === 0) return redirectWithToast(back, { type: 'warning', title: t('contacts.bulk.none') })
	if (bulkAction === 'delete' && formData.get('confirmed') !== 'yes') return data({ intent: 'confirm-delete' as const, contactIds, problem: null, result: null })
	try {
		const { affected } = await api.post<{ affected: number }>(`${base}/bulk`, { action: bulkAction, contactIds, labelId: formData.get('labelId') || undefined })
		return redirectWithToast(back, { type: 'success', title: t(`contacts.bulk.done.${bulkAction === 'delete' ? 'delete' : bulkAction === 'unlabel' ? 'unlabel' : 'label'}`, { count: affected }) })
	} catch (error) {
		return refusalToast(error, { locale, request, to: back, title: t('contacts.bulk.failed') })
	}
}

export default function Contacts() {
	const { title, locale, query, page, labels, selected, confirmDelete, confirmOptIn, confirmMerge, manages, failure } = useLoaderData<typeof loader>()
	const actionData = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const location = useLocation()
	const base = `/${locale}/dashboard/contacts`
	const withParams = (changes: Record<string, string | null>) => {
		const params = new URLSearchParams(location.search)
		for (const [name, value] of Object.entries(changes)) {
			if (value === null || value === '') params.delete(name)
			else params.set(name, value)
		}
		const search = params.toString()
		return `${base}${search ? `?${search}` : ''}`
	}
	const filtered = Boolean(query.search || query.label)
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={table.toolbar}>
				<div className={styles.pageHeader}>
					<h1 className={styles.pageTitle}>{title}</h1>
					<p className={styles.pageLead}>
						{page.totalCapped ? (
							<>
								{t('contacts.totalCapped', { count: page.total })} <Link to={withParams({ count: 'exact' })}>{t('contacts.countAll')}</Link>
							</>
						) : (
							t('contacts.total', { count: page.total })
						)}
					</p>
				</div>
				<div className={table.actions}>
					<Link to={`${base}/export${location.search}`} reloadDocument className={button.outline}>
						{t('contacts.export')}
					</Link>
					<Link to={`${base}/itsForm`} className={button.primary}>
						{t('contacts.new')}
					</Link>
				</div>
			</div>

			{/* Keyed by the filter, so a link that changes it (clear, a label's count) also resets the fields. */}
			<Form method="get" className={contacts.filters} role="search" key={`${query.search}|${query.label}`}>
				<div className={contacts.filter}>
					<label htmlFor="contact-search">{t('contacts.search')}</label>
					<input id="contact-search" type="search" name="search" defaultValue={query.search} className={input} placeholder={t('contacts.searchHint')} />
				</div>
				<div className={contacts.filter}>
					<label htmlFor="contact-label">{t('contacts.label')}</label>
					<select id="contact-label" name="label" defaultValue={query.label} className={input}>
						<option value="">{t('contacts.anyLabel')}</option>
						{labels.map((label) => (
							<option key={label.id} value={label.id}>
								{label.title}
							</option>
						))}
					</select>
				</div>
				<input type="hidden" name="sort" value={query.sort} />
				<input type="hidden" name="direction" value={query.direction} />
				<button type="submit" className={button.outline}>
					{t('actions.search')}
				</button>
				{filtered ? (
					<Link to={base} className={button.ghost}>
						{t('contacts.clear')}
					</Link>
				) : null}
			</Form>

			{actionData?.intent === 'confirm-delete' ? (
				<Confirm
					title={t('contacts.bulk.confirmDelete', { count: actionData.contactIds.length })}
					fields={{ bulkAction: 'delete', confirmed: 'yes', search: location.search, contactIds: actionData.contactIds }}
					confirm={t('actions.delete')}
					cancel={withParams({})}
				/>
			) : null}

			<div className={contacts.layout}>
				<div className={table.wrapper}>
					{page.contacts.length === 0 ? (
						<div className={table.empty}>
							<p>{filtered ? t('contacts.noMatch') : t('contacts.empty')}</p>
							{filtered ? null : (
								<p>
									<Link to={`${base}/itsForm`}>{t('contacts.new')}</Link>
								</p>
							)}
						</div>
					) : (
						<Form method="post">
							<input type="hidden" name="search" value={location.search} />
							<div className={contacts.bulk}>
								<label htmlFor="bulk-action">{t('contacts.bulk.label')}</label>
								<select id="bulk-action" name="bulkAction" className={input} defaultValue="label">
									<option value="label">{t('contacts.bulk.addLabel')}</option>
									<option value="unlabel">{t('contacts.bulk.removeLabel')}</option>
									{manages ? <option value="delete">{t('contacts.bulk.delete')}</option> : null}
								</select>
								<label htmlFor="bulk-label" className="visually-hidden">
									{t('contacts.bulk.which')}
								</label>
								<select id="bulk-label" name="labelId" className={input} defaultValue={labels[0]?.id ?? ''}>
									{labels.map((label) => (
										<option key={label.id} value={label.id}>
											{label.title}
										</option>
									))}
								</select>
								<button type="submit" className={button.outline}>
									{t('contacts.bulk.apply')}
								</button>
							</div>
							<table className={table.table}>
								<caption className="visually-hidden">{title}</caption>
								<thead>
									<tr>
										<th className={table.th}>
											<span className="visually-hidden">{t('contacts.select')}</span>
										</th>
										<SortHeader sort="name" query={query} to={withParams}>
											{t('contacts.name')}
										</SortHeader>
										<th className={table.th}>{t('contacts.reach')}</th>
										<th className={table.th}>{t('contacts.company')}</th>
										<th className={table.th}>{t('contacts.labels')}</th>
										<SortHeader sort="created" query={query} to={withParams}>
											{t('contacts.created')}
										</SortHeader>
										<SortHeader sort="activity" query={query} to={withParams}>
											{t('contacts.activity')}
										</SortHeader>
									</tr>
								</thead>
								<tbody>
									{page.contacts.map((contact) => (
										<ContactRow key={contact.id} contact={contact} to={withParams({ contact: contact.id, delete: null })} />
									))}
								</tbody>
							</table>
						</Form>
					)}
					<nav className={table.pager} aria-label={t('pagination.label')}>
						<span>{query.cursor ? <Link to={withParams({ cursor: null })}>{t('contacts.firstPage')}</Link> : null}</span>
						{page.nextCursor ? (
							<Link to={withParams({ cursor: page.nextCursor })} className={button.outline} rel="next">
								{t('pagination.next')}
							</Link>
						) : null}
					</nav>
				</div>
				<div className={contacts.report}>
					{selected ? (
						<ContactPanel
							contact={selected}
							confirmDelete={confirmDelete}
							confirmOptIn={confirmOptIn}
							confirmMerge={confirmMerge}
							manages={manages}
							base={base}
							close={withParams({ contact: null, delete: null, optIn: null, merge: null })}
						/>
					) : null}
					<ImportForm outcome={actionData?.intent === 'import' ? actionData : null} />
				</div>
			</div>
		</>
	)
}

function SortHeader({ sort, query, to, children }: { sort: ContactSort; query: ContactQuery; to: (changes: Record<string, string | null>) => string; children: React.ReactNode }) {
	const active = query.sort === sort
	const next = active && query.direction === 'asc' ? 'desc' : active ? 'asc' : sort === 'name' ? 'asc' : 'desc'
	return (
		<th className={table.th} aria-sort={active ? (query.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
			<Link to={to({ sort, direction: next, cursor: null })} className={contacts.sortLink}>
				{children}
				{active ? (query.direction === 'asc' ? ' ↑' : ' ↓') : ''}
			</Link>
		</th>
	)
}

function ContactRow({ contact, to }: { contact: Contact; to: string }) {
	const { t } = useTranslation()
	const date = useDateFormat()
	return (
		<tr>
			<td className={table.td}>
				<input type="checkbox" name="contactIds" value={contact.id} aria-label={t('contacts.selectOne', { name: contact.name })} />
			</td>
			<td className={table.td}>
				<span className={contacts.person}>
					<span className={contacts.avatar} style={{ background: contact.avatarColor }} aria-hidden="true">
						{[...contact.name][0]?.toUpperCase()}
					</span>
					<Link to={to}>{contact.name}</Link>
				</span>
			</td>
			<td className={table.td}>
				<div dir="ltr">{contact.email}</div>
				<div dir="ltr">{contact.phone}</div>
			</td>
			<td className={table.td}>{contact.company}</td>
			<td className={table.td}>
				<span className={chips}>
					{contact.labels.map((label) => (
						<LabelChip key={label.id} label={label} />
					))}
				</span>
			</td>
			<td className={table.td}>{date(contact.createdAt)}</td>
			<td className={table.td}>{date(contact.lastActivityAt)}</td>
		</tr>
	)
}

/** The chosen contact beside the list: how to reach them, labels, attributes, notes. */
function ContactPanel({
	contact,
	confirmDelete,
	confirmOptIn,
	confirmMerge,
	manages,
	base,
	close,
}: {
	contact: Contact
	confirmDelete: boolean
	confirmOptIn: boolean
	confirmMerge: string | null
	manages: boolean
	base: string
	close: string
}) {
	const { t } = useTranslation()
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const reopen = `${close}${close.includes('?') ? '&' : '?'}contact=${contact.id}`
	const attributes = Object.entries(contact.attributes)
	return (
		<aside className={contacts.panel} aria-labelledby="contact-heading">
			<h2 id="contact-heading" className={styles.sectionTitle}>
				{contact.name}
			</h2>
			<dl className={contacts.facts}>
				<dt className={contacts.term}>{t('contacts.email')}</dt>
				<dd dir="ltr">{contact.email ?? '—'}</dd>
				{contact.unverifiedEmail ? (
					<>
						<dt className={contacts.term}>{t('contacts.unverifiedEmail')}</dt>
						<dd>
							<bdi dir="ltr">{contact.unverifiedEmail}</bdi> <small>{t('contacts.unverifiedNote')}</small>
						</dd>
					</>
				) : null}
				<dt className={contacts.term}>{t('contacts.phone')}</dt>
				<dd dir="ltr">{contact.phone ?? '—'}</dd>
				<dt className={contacts.term}>{t('contacts.company')}</dt>
				<dd>{contact.company ?? '—'}</dd>
				{attributes.map(([key, value]) => (
					<div key={key} style={{ display: 'contents' }}>
						<dt className={contacts.term}>{key}</dt>
						<dd>{value}</dd>
					</div>
				))}
			</dl>
			{contact.labels.length ? (
				<span className={chips}>
					{contact.labels.map((label) => (
						<LabelChip key={label.id} label={label} />
					))}
				</span>
			) : null}
			{contact.notes ? <p dir="auto">{contact.notes}</p> : null}
			{contact.identities ? <Identities identities={contact.identities} /> : null}
			{contact.possibleMatches?.length ? <PossibleMatches contact={contact} confirmMerge={confirmMerge} manages={manages} reopen={reopen} /> : null}
			{contact.optedOutAt ? (
				<div className={contacts.optedOut}>
					<p>{t('contacts.optedOut', { date: date(contact.optedOutAt) })}</p>
					{manages && confirmOptIn ? (
						<Form method="post" className={table.actions} role="alertdialog" aria-labelledby="opt-in-title" aria-describedby="opt-in-text">
							<p id="opt-in-title">{t('contacts.optInTitle', { name: contact.name })}</p>
							<p id="opt-in-text">{t('contacts.optInText')}</p>
							<input type="hidden" name="intent" value="opt-in" />
							<input type="hidden" name="contactId" value={contact.id} />
							<input type="hidden" name="name" value={contact.name} />
							<button type="submit" className={button.primary}>
								{t('contacts.optIn')}
							</button>
							<Link to={reopen} className={button.ghost}>
								{t('actions.cancel')}
							</Link>
						</Form>
					) : manages ? (
						<Link to={`${reopen}&optIn=1`} className={button.outline}>
							{t('contacts.optIn')}
						</Link>
					) : null}
				</div>
			) : null}
			{confirmDelete && manages ? (
				<Form method="post" className={table.actions} role="alertdialog" aria-label={t('contacts.deleteTitle', { name: contact.name })}>
					<p>{t('contacts.deleteTitle', { name: contact.name })}</p>
					<input type="hidden" name="intent" value="delete" />
					<input type="hidden" name="contactId" value={contact.id} />
					<input type="hidden" name="name" value={contact.name} />
					<button type="submit" className={button.destructive}>
						{t('actions.delete')}
					</button>
					<Link to={reopen} className={button.ghost}>
						{t('actions.cancel')}
					</Link>
				</Form>
			) : (
				<div className={table.actions}>
					<Link to={`${base}/itsForm?id=${contact.id}`} className={button.outline}>
						{t('actions.edit')}
					</Link>
					{manages ? (
						<Link to={`${reopen}&delete=1`} className={button.ghost}>
							{t('actions.delete')}
						</Link>
					) : null}
					<Link to={close} className={button.ghost}>
						{t('actions.close')}
					</Link>
				</div>
			)}
		</aside>
	)
}

/**
 * The contact whose e-mail this visitor typed: a hint, never acted on by itself. Owners and admins
 * merge the visitor into it after a confirmation that says what moves (issue 26).
 */
function PossibleMatches({ contact, confirmMerge, manages, reopen }: { contact: Contact; confirmMerge: string | null; manages: boolean; reopen: string }) {
	const { t } = useTranslation()
	const { pathname } = useLocation()
	return (
		<section className={contacts.optedOut} aria-labelledby="matches-heading">
			<h3 id="matches-heading" className={contacts.term}>
				{t('contacts.merge.heading')}
			</h3>
			{(contact.possibleMatches ?? []).map((match) =>
				manages && confirmMerge === match.id ? (
					<Form key={match.id} method="post" className={table.actions} role="alertdialog" aria-labelledby="merge-title" aria-describedby="merge-text">
						<p id="merge-title">{t('contacts.merge.title', { name: contact.name, into: match.name })}</p>
						<p id="merge-text">{t('contacts.merge.text', { into: match.name })}</p>
						<input type="hidden" name="intent" value="merge" />
						<input type="hidden" name="contactId" value={contact.id} />
						<input type="hidden" name="into" value={match.id} />
						<input type="hidden" name="name" value={contact.name} />
						<button type="submit" className={button.primary}>
							{t('contacts.merge.confirm')}
						</button>
						<Link to={reopen} className={button.ghost}>
							{t('actions.cancel')}
						</Link>
					</Form>
				) : (
					<p key={match.id}>
						{t('contacts.merge.hint')}{' '}
						<Link to={`${pathname}?contact=${match.id}`}>
							<bdi>{match.name}</bdi>
						</Link>
						{manages ? (
							<>
								{' '}
								<Link to={`${reopen}&merge=${match.id}`} className={button.outline}>
									{t('contacts.merge.action', { into: match.name })}
								</Link>
							</>
						) : null}
					</p>
				),
			)}
		</section>
	)
}

/** Who the contact is on each channel they wrote on: the provider's id of them, or a chat link's visitor. */
function Identities({ identities }: { identities: NonNullable<Contact['identities']> }) {
	const { t } = useTranslation()
	const date = useDateFormat({ dateStyle: 'medium' })
	return (
		<section aria-labelledby="identities-heading">
			<h3 id="identities-heading" className={contacts.subheading}>
				{t('contacts.identities.title')}
			</h3>
			{identities.length ? (
				<ul className={contacts.identities}>
					{identities.map((identity) => (
						<li key={`${identity.channelId} ${identity.externalId ?? ''}`}>
							<strong>{identity.channelName}</strong> ({t(`contacts.identities.kinds.${identity.channelKind}`)}){' '}
							{identity.externalId ? <bdi dir="ltr">{identity.externalId}</bdi> : t('contacts.identities.visitor')}{' '}
							<span className={contacts.term}>{t('contacts.identities.since', { date: date(identity.since) })}</span>
						</li>
					))}
				</ul>
			) : (
				<p className={contacts.term}>{t('contacts.identities.none')}</p>
			)}
		</section>
	)
}

/** CSV import (name, email, phone, company, labels, notes): the report lists each refused row and why. */
function ImportForm({ outcome }: { outcome: { problem: string | null; result: ImportResult | null } | null }) {
	const { t } = useTranslation()
	return (
		<section className={contacts.panel} aria-labelledby="import-heading">
			<h2 id="import-heading" className={styles.sectionTitle}>
				{t('contacts.import.title')}
			</h2>
			<p className={styles.pageLead}>{t('contacts.import.help')}</p>
			<Form method="post" encType="multipart/form-data" className={table.actions}>
				<input type="hidden" name="intent" value="import" />
				<label htmlFor="import-file" className="visually-hidden">
					{t('contacts.import.file')}
				</label>
				<input id="import-file" type="file" name="file" accept=".csv,text/csv" required />
				<button type="submit" className={button.outline}>
					{t('contacts.import.submit')}
				</button>
			</Form>
			{outcome?.problem ? <p role="alert">{outcome.problem}</p> : null}
			{outcome?.result ? (
				<div role="status" className={contacts.report}>
					<p>{t('contacts.import.report', { created: outcome.result.created, updated: outcome.result.updated, rejected: outcome.result.rejected.length })}</p>
					{outcome.result.rejected.length ? (
						<ul>
							{outcome.result.rejected.slice(0, 100).map((rejection) => (
								<li key={`${rejection.row}-${rejection.field ?? ''}`}>{t('contacts.import.rejectedRow', { row: rejection.row, reason: rejection.reason })}</li>
							))}
						</ul>
					) : null}
				</div>
			) : null}
		</section>
	)
}
