import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { type Contact } from '#app/utils/contacts.ts'
import * as contacts from './contacts.css.ts'

/**
 * The contact whose e-mail this visitor typed: a hint, never acted on by itself. Owners and admins
 * merge the visitor into it after a confirmation that says what moves (issue 26).
 */
export function PossibleMatches({
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
