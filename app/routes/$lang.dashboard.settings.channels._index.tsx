import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useDateFormat } from '#app/utils/dates.ts'
import { deleteChannel, listChannels } from '#app/.server/channels.ts'
import { confirmedDeletion } from '#app/.server/forms.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { channelsT } from '#app/i18n/channels.server.ts'
import { CopyButton } from '#app/components/channels/copy-button.tsx'
import * as channelStyles from '#app/components/channels/channels.css.ts'
import { KindIcon } from '#app/components/channels/kind-icon.tsx'
import { SettingsList } from '#app/components/settings-list.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { publicUrlOf } from './$lang.dashboard.settings.channels.server.ts'
import { formOf } from '#app/utils/http.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { canManage } from '#common/roles.ts'

// The channels namespace loads with the page (before it hydrates), besides `common`.
export const handle = { i18n: ['channels'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const channels = await listChannels(api, user.workspace.id).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const t = await channelsT(locale)
	const deleting = new URL(args.request.url).searchParams.get('delete')
	return {
		title: t('ui.title'),
		locale,
		channels: channels.map((channel) => ({ ...channel, publicUrl: publicUrlOf(args, locale, channel) })),
		manages: canManage(user.workspace.role),
		deleting: channels.find((channel) => channel.id === deleting) ?? null,
	}
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(request)
	const t = await channelsT(locale)
	const here = `/${locale}/dashboard/settings/channels`
	const done = t('ui.deleted', { name: String(form.get('name') ?? '') })
	return confirmedDeletion(() => deleteChannel(api, user.workspace.id, String(form.get('channelId') ?? '')), { locale, request, here, done })
}

export default function Channels() {
	const { title, locale, channels, manages, deleting } = useLoaderData<typeof loader>()
	const deleteError = useKeptActionData<typeof action>()?.deleteError ?? null
	const { t } = useTranslation('channels')
	const common = useTranslation().t
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const base = `/${locale}/dashboard/settings/channels`
	return (
		<SettingsList
			title={title}
			lead={t('ui.lead')}
			aside={
				manages ? (
					<Link to={`${base}/create`} className={button.primary}>
						{t('ui.new')}
					</Link>
				) : null
			}
			note={manages ? null : t('ui.readOnly')}
			deletion={{
				asking:
					deleting && manages
						? {
								title: t('ui.deleteTitle', { name: deleting.name }),
								text: t('ui.deleteText'),
								fields: { channelId: deleting.id, name: deleting.name },
								confirm: common('actions.delete'),
							}
						: null,
				error: deleteError,
				failedTitle: t('ui.deleteFailed'),
				cancel: base,
			}}
			list
			columns={[
				{
					header: t('ui.kind'),
					cell: (channel) => (
						<span className={channelStyles.kindCell}>
							<KindIcon kind={channel.kind} />
							{t(`ui.kinds.${channel.kind}`)}
						</span>
					),
				},
				{ header: t('ui.name'), cell: (channel) => <span>{channel.name}</span> },
				{
					header: t('ui.status'),
					cell: (channel) => (
						<>
							<span className={table.badge}>{t(`ui.statuses.${channel.status}`)}</span>
							{channel.status === 'error' ? (
								<p className={channelStyles.statusDetail}>
									{channel.failingSince ? t('ui.failingSince', { date: date(channel.failingSince) }) : null} {channel.statusDetail}
								</p>
							) : null}
						</>
					),
				},
				{
					header: t('ui.today'),
					cell: (channel) =>
						channel.today ? <span>{t('ui.todayCounts', { incoming: channel.today.incoming, outgoing: channel.today.outgoing })}</span> : null,
				},
				{
					header: t('ui.address'),
					cell: (channel) =>
						channel.publicUrl ? (
							<span className={channelStyles.address}>
								<a href={channel.publicUrl} target="_blank" rel="noopener noreferrer" className={channelStyles.url}>
									{channel.publicUrl}
								</a>
								<CopyButton
									text={channel.publicUrl}
									label={t('ui.copy')}
									copiedLabel={t('ui.copied')}
									accessibleName={t('ui.copyLabel', { name: channel.name })}
								/>
							</span>
						) : null,
				},
			]}
			rows={channels}
			rowKey={(channel) => channel.id}
			rowActions={
				manages
					? (channel) => ({
							edit: { to: `${base}/${channel.id}`, label: t('ui.edit', { name: channel.name }) },
							remove: { to: `${base}?delete=${channel.id}`, label: t('ui.deleteTitle', { name: channel.name }) },
						})
					: undefined
			}
			empty={t('ui.none')}
		/>
	)
}
