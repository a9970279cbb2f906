import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type CampaignJson } from '#app/.server/api.ts'
import * as table from '#app/components/ui/table.css.ts'
import { Progress } from './progress.tsx'

/** The workspace's campaigns, each name opening its details; `caption` is the page's title. */
export function CampaignList({ campaigns, caption, locale }: { campaigns: CampaignJson[]; caption: string; locale: string }) {
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/campaign-manager`
	return (
		<div className={table.wrapper}>
			<table className={table.table}>
				<caption className="visually-hidden">{caption}</caption>
				<thead>
					<tr>
						<th className={table.th}>{t('campaigns.name')}</th>
						<th className={table.th}>{t('campaigns.state')}</th>
						<th className={table.th}>{t('campaigns.channel')}</th>
						<th className={table.th}>{t('campaigns.audience')}</th>
						<th className={table.th}>{t('campaigns.progressTitle')}</th>
					</tr>
				</thead>
				<tbody>
					{campaigns.map((campaign) => (
						<tr key={campaign.id}>
							<td className={table.td}>
								<Link to={`${base}?campaign=${campaign.id}`} dir="auto">
									{campaign.name}
								</Link>
							</td>
							<td className={table.td}>{t(`campaigns.status.${campaign.status}`)}</td>
							<td className={table.td}>{campaign.channelName}</td>
							<td className={table.td}>{campaign.audienceCount}</td>
							<td className={table.td}>
								<Progress campaign={campaign} />
							</td>
						</tr>
					))}
				</tbody>
			</table>
			{campaigns.length === 0 ? <p className={table.empty}>{t('campaigns.none')}</p> : null}
		</div>
	)
}
