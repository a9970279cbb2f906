import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { getContact, getContactSatisfaction, listContacts } from '#app/.server/contacts.ts'
import { countriesIn } from '#app/.server/countries.ts'
import { listLabels } from '#app/.server/labels.ts'
import { listOrToast, requireUser, rethrowApiError } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { ContactFilters } from '#app/components/contacts/contact-filters.tsx'
import { ContactList, type ListLink } from '#app/components/contacts/contact-list.tsx'
import { ContactPanel } from '#app/components/contacts/contact-panel.tsx'
import * as contacts from '#app/components/contacts/contacts.css.ts'
import { ImportForm } from '#app/components/contacts/import-form.tsx'
import { Confirm } from '#app/components/confirm.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { contactQuery, type ContactPage } from '#app/utils/contacts.ts'
import { withParams } from '#app/utils/conversations.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
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
	const t = await serverT(locale)
	const selectedId = url.searchParams.get('contact')
	// A search with very many matches says "more than 20000" unless the user asks for the exact number.
	const countAll = url.searchParams.get('count') === 'exact'
	const [{ list: page, failure }, labels, selected, satisfaction] = await Promise.all([
		listOrToast(
			listContacts(api, user.workspace.id, { ...query, limit: 25, count: countAll ? 'exact' : undefined }),
			{ contacts: [], nextCursor: null, total: 0, totalCapped: false } as ContactPage,
			{
				locale,
				request: args.request,
				title: t('contacts.loadFailed'),
			},
		),
		listLabels(api, user.workspace.id).catch((error: unknown) => rethrowApiError(error, locale, args.request)),
		selectedId ? getContact(api, user.workspace.id, selectedId).catch(() => null) : null,
		// The panel does without the ratings when they cannot be read (the contact deleted meanwhile).
		selectedId ? getContactSatisfaction(api, user.workspace.id, selectedId).catch(() => null) : null,
	])
	return {
		title: t('contacts.title'),
		locale,
		query,
		page,
		labels,
		selected,
		satisfaction,
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
	const {
		title,
		locale,
		query,
		page,
		labels,
		selected,
		satisfaction,
		confirmDelete,
		confirmOptIn,
		confirmMerge,
		manages,
		allSelected,
		country,
		countries,
		failure,
	} = useLoaderData<typeof loader>()
	const actionData = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const location = useLocation()
	const base = `/${locale}/dashboard/contacts`
	// Remix marks a post to an index route with `?index`: never a page's address.
	const to: ListLink = (changes) => withParams(base, location.search, { index: null, ...changes })
	const filtered = Boolean(query.search || query.label)
	// The page's own address as every form's action, so that an answer shown in place (an import's report) keeps it.
	const here = to({})
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={table.toolbar}>
				<div className={styles.pageHeader}>
					<h1 className={styles.pageTitle}>{title}</h1>
					<p className={styles.pageLead}>
						{page.totalCapped ? (
							<>
								{t('contacts.totalCapped', { count: page.total })} <Link to={to({ count: 'exact' })}>{t('contacts.countAll')}</Link>
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

			<ContactFilters query={query} labels={labels} base={base} />

			{actionData?.intent === 'confirm-delete' ? (
				<Confirm
					title={t('contacts.bulk.confirmDelete', { count: actionData.contactIds.length })}
					fields={{ bulkAction: 'delete', confirmed: 'yes', search: location.search, contactIds: actionData.contactIds }}
					action={here}
					confirm={t('actions.delete')}
					cancel={here}
				/>
			) : null}

			<div className={selected ? contacts.layout : undefined}>
				{selected ? (
					<div className={contacts.side}>
						<ContactPanel
							contact={selected}
							satisfaction={satisfaction}
							confirmDelete={confirmDelete}
							confirmOptIn={confirmOptIn}
							confirmMerge={confirmMerge}
							manages={manages}
							base={base}
							action={here}
							close={to({ contact: null, delete: null, optIn: null, merge: null })}
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
						<ContactList title={title} query={query} rows={page.contacts} labels={labels} manages={manages} allSelected={allSelected} action={here} to={to} />
					)}
					<nav className={table.pager} aria-label={t('pagination.label')}>
						<span>{query.cursor ? <Link to={to({ cursor: null })}>{t('contacts.firstPage')}</Link> : null}</span>
						{page.nextCursor ? (
							<Link to={to({ cursor: page.nextCursor })} className={button.outline} rel="next">
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
