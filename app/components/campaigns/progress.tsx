import { useTranslation } from 'react-i18next'
import { type CampaignJson } from '#app/.server/api.ts'
import * as table from '#app/components/ui/table.css.ts'

/** How far a campaign got through its audience, as a bar and in words. */
export function Progress({ campaign }: { campaign: CampaignJson }) {
	const { t } = useTranslation()
	const label = t('campaigns.progress', { done: campaign.processed, total: campaign.audienceCount })
	return (
		<span className={table.actions}>
			<progress max={Math.max(campaign.audienceCount, 1)} value={campaign.processed} aria-label={label} />
			<span>{label}</span>
		</span>
	)
}
