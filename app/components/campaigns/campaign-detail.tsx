import { Form, Link } from '@remix-run/react'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { type CampaignJson } from '#app/.server/api.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { isolatedText } from '#app/utils/bidi.tsx'
import { recipientStatuses } from '#app/utils/campaigns.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { Progress } from './progress.tsx'

/**
 * The campaign opened: its state and totals, its message as a contact reads it (`preview`), the
 * buttons of those who manage it, each asked once more in the page when `confirming` names it, and
 * below them its recipients (`children`). `refused` is why the API refused the last button pressed.
 */
export function CampaignDetail({
	campaign,
	locale,
	manages,
	confirming,
	startsLater,
	refused,
	preview,
	children,
}: {
	campaign: CampaignJson
	locale: string
	manages: boolean
	confirming: 'start' | 'cancel' | null
	/** A draft with a date ahead is scheduled when started. */
	startsLater: boolean
	refused: { intent: string; message: string } | null
	preview: ReactNode
	children: ReactNode
}) {
	const { t } = useTranslation()
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const here = `/${locale}/dashboard/campaign-manager?campaign=${campaign.id}`
	const started = !['draft', 'scheduled'].includes(campaign.status)
	const start = startsLater ? t('campaigns.actions.schedule') : t('campaigns.actions.start')
	const act = (intent: string, label: string) => (
		<Form method="post">
			<input type="hidden" name="campaignId" value={campaign.id} />
			<Button type="submit" name="intent" value={intent} variant="outline">
				{label}
			</Button>
		</Form>
	)
	return (
		<section className={styles.section} aria-labelledby="campaign-heading">
			<h2 id="campaign-heading" className={styles.sectionTitle}>
				<bdi>{campaign.name}</bdi> — {t(`campaigns.status.${campaign.status}`)}
			</h2>
			{campaign.statusDetail ? <p>{campaign.statusDetail}</p> : null}
			{/* Before it starts, whom it will reach now (the form's count); then how far it got. */}
			{started ? <Progress campaign={campaign} /> : <p data-audience>{t('campaigns.audienceCount', { count: campaign.audienceCount })}</p>}
			<dl className={table.actions}>
				{recipientStatuses.map((name) => (
					<div key={name}>
						<dt>{t(`campaigns.recipientStatus.${name}`)}</dt>
						<dd data-total={name}>{campaign.totals[name]}</dd>
					</div>
				))}
			</dl>
			{campaign.status === 'scheduled' && campaign.scheduledAt ? <p>{t('campaigns.scheduledFor', { date: date(campaign.scheduledAt) })}</p> : null}
			{preview}
			{confirming === 'start' && campaign.status === 'draft' ? (
				<Confirm
					id="confirm"
					tone="primary"
					title={
						startsLater && campaign.scheduledAt
							? t('campaigns.scheduleTitle', { count: campaign.audienceCount, date: date(campaign.scheduledAt) })
							: t('campaigns.startTitle', { count: campaign.audienceCount })
					}
					text={t('campaigns.startText')}
					fields={{ intent: 'start', campaignId: campaign.id }}
					confirm={startsLater ? t('campaigns.actions.schedule') : t('campaigns.actions.sendNow')}
					cancel={here}
					error={refused?.intent === 'start' ? refused.message : null}
				/>
			) : null}
			{confirming === 'cancel' ? (
				<Confirm
					id="confirm"
					title={t('campaigns.cancelTitle', { name: isolatedText(campaign.name) })}
					text={t('campaigns.cancelText')}
					fields={{ intent: 'cancel', campaignId: campaign.id }}
					confirm={t('campaigns.actions.cancel')}
					cancel={here}
					error={refused?.intent === 'cancel' ? refused.message : null}
				/>
			) : null}
			{refused && !(confirming && refused.intent === confirming) ? (
				<p role="alert" className={fieldStyles.formErrors}>
					{refused.message}
				</p>
			) : null}
			{manages ? (
				<div className={table.actions}>
					{campaign.status === 'draft' && !confirming ? (
						<Link to={`${here}&confirm=start#confirm`} className={button.primary}>
							{start}
						</Link>
					) : null}
					{campaign.status === 'running' ? act('pause', t('campaigns.actions.pause')) : null}
					{campaign.status === 'paused' || campaign.status === 'failed' ? act('resume', t('campaigns.actions.resume')) : null}
					{['draft', 'scheduled'].includes(campaign.status) ? (
						<Link to={`/${locale}/dashboard/campaign-manager?edit=${campaign.id}`} className={button.ghost}>
							{t('actions.edit')}
						</Link>
					) : null}
					{['draft', 'scheduled', 'running', 'paused', 'failed'].includes(campaign.status) && !confirming ? (
						<Link to={`${here}&confirm=cancel#confirm`} className={button.ghost}>
							{t('campaigns.actions.cancel')}
						</Link>
					) : null}
				</div>
			) : null}
			{children}
		</section>
	)
}
