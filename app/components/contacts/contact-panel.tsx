import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type ContactSatisfactionJson } from '#app/.server/api.ts'
import { LabelChips } from '#app/components/label-chip.tsx'
import { ContactRatings } from '#app/components/satisfaction/contact-ratings.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { type Contact } from '#app/utils/contacts.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { PossibleMatches } from './possible-matches.tsx'
import * as contacts from './contacts.css.ts'

/** The chosen contact beside the list: how to reach them, labels, attributes, notes, channels, satisfaction. */
export function ContactPanel({
	contact,
	satisfaction,
	confirmDelete,
	confirmOptIn,
	confirmMerge,
	manages,
	base,
	action,
	close,
}: {
	contact: Contact
	/** The contact's ratings; null when they could not be read. */
	satisfaction: ContactSatisfactionJson | null
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
			{satisfaction ? <ContactRatings satisfaction={satisfaction} /> : null}
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
