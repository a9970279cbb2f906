import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LabelChips } from '#app/components/label-chip.tsx'
import * as table from '#app/components/ui/table.css.ts'
import { type Contact, type ContactQuery, type ContactSort } from '#app/utils/contacts.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { type Label } from '#app/utils/labels.ts'
import { BulkBar, syncSelectAll } from './bulk-bar.tsx'
import * as contacts from './contacts.css.ts'

/** The list's address with `changes` to its query (null removes). */
export type ListLink = (changes: Record<string, string | null>) => string

type Props = {
	/** The page's title, the table's caption. */
	title: string
	query: ContactQuery
	rows: Contact[]
	labels: Label[]
	manages: boolean
	/** Every row ticked (`?select=all`, "Select all" without JavaScript). */
	allSelected: boolean
	/** Where the bulk bar posts. */
	action: string
	to: ListLink
}

/** A page of contacts as a table with a box on each row, in one form with the bulk bar; the headers' links sort it. */
export function ContactList({ title, query, rows, labels, manages, allSelected, action, to }: Props) {
	const { t } = useTranslation()
	const location = useLocation()
	return (
		// A new page (an action's answer, another page of the list) starts with no row ticked; a live update keeps the ticks.
		<Form method="post" action={action} onChange={(event) => syncSelectAll(event.currentTarget)} key={location.key}>
			<input type="hidden" name="search" value={location.search} />
			<BulkBar labels={labels} manages={manages} allSelected={allSelected} selectAllTo={to({ select: allSelected ? null : 'all' })} />
			<table className={`${table.table} ${table.list} ${contacts.rows}`}>
				<caption className="visually-hidden">{title}</caption>
				<thead>
					<tr>
						<th className={table.th}>
							<span className="visually-hidden">{t('contacts.select')}</span>
						</th>
						<SortHeader sort="name" query={query} to={to}>
							{t('contacts.name')}
						</SortHeader>
						<th className={table.th}>{t('contacts.reach')}</th>
						<th className={table.th}>{t('contacts.company')}</th>
						<th className={table.th}>{t('contacts.labels')}</th>
						<SortHeader sort="created" query={query} to={to}>
							{t('contacts.created')}
						</SortHeader>
						<SortHeader sort="activity" query={query} to={to}>
							{t('contacts.activity')}
						</SortHeader>
					</tr>
				</thead>
				<tbody>
					{rows.map((contact) => (
						<ContactRow key={contact.id} contact={contact} ticked={allSelected} to={to({ contact: contact.id, delete: null, select: null })} />
					))}
				</tbody>
			</table>
		</Form>
	)
}

function SortHeader({ sort, query, to, children }: { sort: ContactSort; query: ContactQuery; to: ListLink; children: React.ReactNode }) {
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
