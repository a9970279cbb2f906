import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { recipientStatuses, type RecipientJson } from '#app/utils/campaigns.ts'

/** A campaign's recipients, fifty a page (`page` of them shown), filtered by their state (`status`), and their export. */
export function Recipients({
	campaignId,
	locale,
	recipients,
	status,
	page,
}: {
	campaignId: string
	locale: string
	recipients: { recipients: RecipientJson[]; total: number } | null
	status: string
	page: number
}) {
	const { t } = useTranslation()
	const here = `/${locale}/dashboard/campaign-manager?campaign=${campaignId}`
	return (
		<>
			<Form method="get" className={table.actions}>
				<input type="hidden" name="campaign" value={campaignId} />
				<label htmlFor="recipient-status">{t('campaigns.filter')}</label>
				<select id="recipient-status" name="status" defaultValue={status} className={fieldStyles.input}>
					<option value="">{t('campaigns.allStatuses')}</option>
					{recipientStatuses.map((name) => (
						<option key={name} value={name}>
							{t(`campaigns.recipientStatus.${name}`)}
						</option>
					))}
				</select>
				<Button type="submit" variant="outline">
					{t('campaigns.apply')}
				</Button>
				<a href={`/${locale}/dashboard/campaign-manager/export?campaign=${campaignId}${status ? `&status=${status}` : ''}`} className={button.ghost} download>
					{t('campaigns.export')}
				</a>
			</Form>
			<div className={table.wrapper}>
				<table className={table.table}>
					<caption className="visually-hidden">{t('campaigns.recipients')}</caption>
					<thead>
						<tr>
							<th className={table.th}>{t('campaigns.contact')}</th>
							<th className={table.th}>{t('campaigns.state')}</th>
							<th className={table.th}>{t('campaigns.reason')}</th>
						</tr>
					</thead>
					<tbody>
						{recipients?.recipients.map((recipient) => (
							<tr key={recipient.contactId}>
								<td className={table.td}>{recipient.name}</td>
								<td className={table.td}>{t(`campaigns.recipientStatus.${recipient.status}`)}</td>
								<td className={table.td}>{recipient.reason}</td>
							</tr>
						))}
					</tbody>
				</table>
				{recipients && recipients.total === 0 ? <p className={table.empty}>{t('campaigns.noRecipients')}</p> : null}
				{recipients && recipients.total > page * 50 ? (
					<Link to={`${here}${status ? `&status=${status}` : ''}&page=${page + 1}`}>{t('campaigns.more')}</Link>
				) : null}
			</div>
		</>
	)
}
