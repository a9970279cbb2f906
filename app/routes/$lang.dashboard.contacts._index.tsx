import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { countriesIn, type Country } from '#app/.server/countries.ts'
import { type ImportResult } from '#app/.server/api.ts'
import { listOrToast, requireUser, rethrowApiError } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { CountryField } from '#app/components/country-field.tsx'
import { LabelChips } from '#app/components/label-chip.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { contactQuery, type Contact, type ContactPage, type ContactQuery, type ContactSort } from '#app/utils/contacts.ts'
import { type Label } from '#app/utils/labels.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import * as contacts from './contacts.css.ts'
import { contactsAction } from './$lang.dashboard.contacts._index.server.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { canManage } from '#common/roles.ts'

// The workspace channel's events this page shows reload it (app/realtime/use-workspace-events.ts); a new conversation may bring a new contact.
export const handle = { live: ['contact.', 'label.', 'conversation.created'] }

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
		listOrToast(
			api.get<ContactPage>(`${base}/contacts`, { ...query, limit: 25, count: countAll ? 'exact' : undefined }),
			{ contacts: [], nextCursor: null, total: 0, totalCapped: false } as ContactPage,
			{
				locale,
				request: args.request,
				title: t('contacts.loadFailed'),
			},
		),
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
		manages: canManage(user.workspace.role),
		// Rows come ticked after "Select all" without JavaScript (`?select=all`).
		allSelected: url.searchParams.get('select') === 'all',
		country: user.workspace.country,
		countries: countriesIn(locale),
		failure,
	}
}

export const action = (args: ActionFunctionArgs) => contactsAction(args)

export default function Contacts() {
	const { title, locale, query, page, labels, selected, confirmDelete, confirmOptIn, confirmMerge, manages, allSelected, country, countries, failure } =
		useLoaderData<typeof loader>()
	const actionData = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const location = useLocation()
	const base = `/${locale}/dashboard/contacts`
	const withParams = (changes: Record<string, string | null>) => {
		const params = new URLSearchParams(location.search)
		// Remix marks a post to an index route with `?index`: never a page's address.
		params.delete('index')
		for (const [name, value] of Object.entries(changes)) {
			if (value === null || value === '') params.delete(name)
			else params.set(name, value)
		}
		const search = params.toString()
		return `${base}${search ? `?${search}` : ''}`
	}
	const filtered = Boolean(query.search || query.label)
	// The page's own address as every form's action, so that an answer shown in place (an import's report) keeps it.
	const here = withParams({})
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
					action={here}
					confirm={t('actions.delete')}
					cancel={withParams({})}
				/>
			) : null}

			<div className={selected ? contacts.layout : undefined}>
				{selected ? (
					<div className={contacts.side}>
						<ContactPanel
							contact={selected}
							confirmDelete={confirmDelete}
							confirmOptIn={confirmOptIn}
							confirmMerge={confirmMerge}
							manages={manages}
							base={base}
							action={here}
							close={withParams({ contact: null, delete: null, optIn: null, merge: null })}
						/>
					</div>
				) : null}
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
						// A new page (an action's answer, another page of the list) starts with no row ticked; a live update keeps the ticks.
						<Form method="post" action={here} onChange={(event) => syncSelectAll(event.currentTarget)} key={location.key}>
							<input type="hidden" name="search" value={location.search} />
							<div className={contacts.bulk}>
								<SelectAll all={allSelected} to={withParams({ select: allSelected ? null : 'all' })} />
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
							<table className={`${table.table} ${table.list} ${contacts.rows}`}>
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
										<ContactRow key={contact.id} contact={contact} ticked={allSelected} to={withParams({ contact: contact.id, delete: null, select: null })} />
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
			</div>
			<ImportForm outcome={actionData?.intent === 'import' ? actionData : null} action={here} country={country} countries={countries} />
		</>
	)
}

/** Ticks or unticks every row of the page: a checkbox with JavaScript, a link that renders them ticked without. */
function SelectAll({ all, to }: { all: boolean; to: string }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const box = useRef<HTMLInputElement>(null)
	useEffect(() => {
		if (box.current?.form) syncSelectAll(box.current.form)
	}, [hydrated])
	if (!hydrated) {
		return (
			<Link to={to} className={`${button.outline} ${contacts.selectAll}`}>
				{all ? t('contacts.selectNone') : t('contacts.selectAll')}
			</Link>
		)
	}
	return (
		<label className={contacts.selectAll}>
			<input
				ref={box}
				type="checkbox"
				name="selectAll"
				onChange={(event) => {
					for (const row of rowBoxes(event.currentTarget.form)) row.checked = event.currentTarget.checked
				}}
			/>
			{t('contacts.selectAll')}
		</label>
	)
}

const rowBoxes = (form: HTMLFormElement | null) => [...(form?.querySelectorAll<HTMLInputElement>('input[name="contactIds"]') ?? [])]

// The header's box says whether all, some or none of the rows are ticked.
function syncSelectAll(form: HTMLFormElement) {
	const header = form.querySelector<HTMLInputElement>('input[name="selectAll"]')
	if (!header) return
	const rows = rowBoxes(form)
	const ticked = rows.filter((row) => row.checked).length
	header.checked = rows.length > 0 && ticked === rows.length
	header.indeterminate = ticked > 0 && ticked < rows.length
}

function SortHeader({
	sort,
	query,
	to,
	children,
}: {
	sort: ContactSort
	query: ContactQuery
	to: (changes: Record<string, string | null>) => string
	children: React.ReactNode
}) {
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

function ContactRow({ contact, ticked, to }: { contact: Contact; ticked: boolean; to: string }) {
	const { t } = useTranslation()
	const date = useDateFormat()
	return (
		<tr>
			<td className={`${table.td} ${contacts.pick}`}>
				<input type="checkbox" name="contactIds" value={contact.id} defaultChecked={ticked} aria-label={t('contacts.selectOne', { name: contact.name })} />
			</td>
			<td className={table.td}>
				<span className={contacts.person}>
					<span className={contacts.avatar} style={{ background: contact.avatarColor }} aria-hidden="true">
						{[...contact.name][0]?.toUpperCase()}
					</span>
					<Link to={to}>
						<bdi>{contact.name}</bdi>
					</Link>
				</span>
			</td>
			<td className={table.td} data-label={t('contacts.reach')}>
				{contact.email ? <div dir="ltr">{contact.email}</div> : null}
				{contact.phone ? <div dir="ltr">{contact.phone}</div> : null}
			</td>
			<td className={table.td} data-label={t('contacts.company')}>
				{contact.company ? <span dir="auto">{contact.company}</span> : null}
			</td>
			<td className={table.td} data-label={t('contacts.labels')}>
				<LabelChips labels={contact.labels} />
			</td>
			<td className={`${table.td} ${contacts.date}`} data-label={t('contacts.created')}>
				<span>{date(contact.createdAt)}</span>
			</td>
			<td className={`${table.td} ${contacts.date}`} data-label={t('contacts.activity')}>
				<span>{date(contact.lastActivityAt)}</span>
			</td>
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
	action,
	close,
}: {
	contact: Contact
	confirmDelete: boolean
	confirmOptIn: boolean
	confirmMerge: string | null
	manages: boolean
	base: string
	/** The list's address, where the panel's forms post. */
	action: string
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
			<LabelChips labels={contact.labels} />
			{contact.notes ? <p dir="auto">{contact.notes}</p> : null}
			{contact.identities ? <Identities identities={contact.identities} /> : null}
			{contact.possibleMatches?.length ? (
				<PossibleMatches contact={contact} confirmMerge={confirmMerge} manages={manages} reopen={reopen} action={action} />
			) : null}
			{contact.optedOutAt ? (
				<div className={contacts.optedOut}>
					<p>{t('contacts.optedOut', { date: date(contact.optedOutAt) })}</p>
					{manages && confirmOptIn ? (
						<Form method="post" action={action} className={table.actions} role="alertdialog" aria-labelledby="opt-in-title" aria-describedby="opt-in-text">
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
				<Form method="post" action={action} className={table.actions} role="alertdialog" aria-label={t('contacts.deleteTitle', { name: contact.name })}>
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
function PossibleMatches({
	contact,
	confirmMerge,
	manages,
	reopen,
	action,
}: {
	contact: Contact
	confirmMerge: string | null
	manages: boolean
	reopen: string
	action: string
}) {
	const { t } = useTranslation()
	const { pathname } = useLocation()
	return (
		<section className={contacts.optedOut} aria-labelledby="matches-heading">
			<h3 id="matches-heading" className={contacts.term}>
				{t('contacts.merge.heading')}
			</h3>
			{(contact.possibleMatches ?? []).map((match) =>
				manages && confirmMerge === match.id ? (
					<Form
						key={match.id}
						method="post"
						action={action}
						className={table.actions}
						role="alertdialog"
						aria-labelledby="merge-title"
						aria-describedby="merge-text"
					>
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
function ImportForm({
	outcome,
	action,
	country,
	countries,
}: {
	outcome: { problem: string | null; result: ImportResult | null; country?: string } | null
	action: string
	/** The workspace's: local numbers of the file are read as its own unless the user picks another. */
	country: string | null
	countries: Country[]
}) {
	const { t } = useTranslation()
	return (
		<section className={`${contacts.panel} ${contacts.importPanel}`} aria-labelledby="import-heading">
			<h2 id="import-heading" className={styles.sectionTitle}>
				{t('contacts.import.title')}
			</h2>
			<p className={styles.pageLead}>{t('contacts.import.help')}</p>
			<Form method="post" action={action} encType="multipart/form-data" className={contacts.importForm}>
				<input type="hidden" name="intent" value="import" />
				<div className={contacts.fileField}>
					<label htmlFor="import-file" className={fieldStyles.label}>
						{t('contacts.import.file')}
					</label>
					<input id="import-file" type="file" name="file" accept=".csv,text/csv" required />
				</div>
				<CountryField
					label={t('contacts.import.country')}
					help={t(country ? 'contacts.import.countryHelp' : 'contacts.countryHelpNone')}
					select={{ id: 'import-country', name: 'country', defaultValue: outcome?.country ?? country ?? '', key: outcome?.country }}
					countries={countries}
					empty={t('contacts.countryNone')}
				/>
				<div>
					<button type="submit" className={button.outline}>
						{t('contacts.import.submit')}
					</button>
				</div>
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
