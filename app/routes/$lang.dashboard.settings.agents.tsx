import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type InvitationJson } from '#app/.server/api.ts'
import { listInvitations } from '#app/.server/invitations.ts'
import { listMembers } from '#app/.server/members.ts'
import { rethrowApiError } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Capacities } from '#app/components/agents/capacities.tsx'
import { InviteForm, InviteLink } from '#app/components/agents/invite-form.tsx'
import { SettingsList } from '#app/components/settings-list.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { RowLink } from '#app/components/ui/data-table.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { agentsAction, requireManager } from './$lang.dashboard.settings.agents.server.ts'
import * as styles from './dashboard.css.ts'

type Status = 'active' | 'revoked' | 'expired' | 'usedUp'

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireManager(args)
	const url = new URL(args.request.url)
	const [list, members] = await Promise.all([
		listInvitations(api, user.workspace.id),
		listMembers(api, user.workspace.id, { page: url.searchParams.get('page'), limit: 25 }),
	]).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const now = Date.now()
	const invitations = list.map((invitation) => ({ ...invitation, status: statusOf(invitation, now) }))
	const t = await serverT(locale)
	return {
		title: t('agents.title'),
		locale,
		invitations,
		created: invitations.find((invitation) => invitation.id === url.searchParams.get('created')) ?? null,
		revoking: invitations.find((invitation) => invitation.id === url.searchParams.get('revoke')) ?? null,
		members,
		defaultCapacity: user.workspace.defaultCapacity,
	}
}

export const action = (args: ActionFunctionArgs) => agentsAction(args)

function statusOf(invitation: InvitationJson, now: number): Status {
	if (invitation.revoked) return 'revoked'
	if (new Date(invitation.expiresAt).getTime() <= now) return 'expired'
	if (invitation.maxUses !== null && invitation.uses >= invitation.maxUses) return 'usedUp'
	return 'active'
}

export default function Agents() {
	const { title, locale, invitations, created, revoking, members, defaultCapacity } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const resendRefused = reply && 'resendRefused' in reply ? reply.resendRefused : null
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const base = `/${locale}/dashboard/settings/agents`
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const active = (invitationId: string) => invitations.some((invitation) => invitation.id === invitationId && invitation.status === 'active')
	return (
		<SettingsList
			title={title}
			lead={t('agents.lead')}
			// This page holds invitations; the people themselves are on the team's page.
			note={<Link to={`/${locale}/dashboard/team-members`}>{t('agents.membersLink')}</Link>}
			deletion={{
				asking: revoking && {
					title: t('agents.revokeTitle'),
					text: t('agents.revokeText'),
					fields: { intent: 'revoke', invitationId: revoking.id },
					confirm: t('agents.revoke'),
				},
				error: reply && 'deleteError' in reply ? reply.deleteError : null,
				failedTitle: t('agents.revokeFailed'),
				cancel: base,
			}}
			// A resend refused where its row no longer offers it (the invitation used up, revoked meanwhile).
			refusal={resendRefused && !active(resendRefused.invitationId) ? { title: t('agents.resendFailed'), message: resendRefused.message } : null}
			caption={t('agents.list')}
			list
			columns={[
				{
					header: t('agents.invitation'),
					cell: (invitation) => (
						<>
							{invitation.method === 'email' ? <bdi dir="ltr">{invitation.email}</bdi> : <span>{t('agents.methods.link')}</span>}
							{invitation.createdByName ? <div className={styles.pageLead}>{t('agents.by', { name: invitation.createdByName })}</div> : null}
						</>
					),
				},
				{ header: t('team.role'), cell: (invitation) => <span>{t(`roles.${invitation.role}`)}</span> },
				{
					header: t('agents.uses'),
					cell: (invitation) => <bdi dir="ltr">{invitation.maxUses === null ? invitation.uses : `${invitation.uses} / ${invitation.maxUses}`}</bdi>,
				},
				{ header: t('agents.expires'), cell: (invitation) => <span>{date(invitation.expiresAt)}</span> },
				{ header: t('agents.status'), cell: (invitation) => <span>{t(`agents.statuses.${invitation.status}`)}</span> },
			]}
			rows={invitations}
			rowKey={(invitation) => invitation.id}
			rowActions={(invitation) =>
				invitation.status === 'active'
					? {
							children: (
								<>
									<RowLink to={`${base}?created=${invitation.id}`}>{t('agents.showLink')}</RowLink>
									{invitation.method === 'email' ? (
										<Form method="post">
											<input type="hidden" name="intent" value="resend" />
											<input type="hidden" name="invitationId" value={invitation.id} />
											<button type="submit" className={button.ghost} disabled={pending}>
												{t('agents.resend')}
											</button>
										</Form>
									) : null}
									<RowLink to={`${base}?revoke=${invitation.id}`}>{t('agents.revoke')}</RowLink>
								</>
							),
							refusal: resendRefused?.invitationId === invitation.id ? t('agents.resendFailedWith', { reason: resendRefused.message }) : null,
						}
					: null
			}
			empty={t('agents.none')}
			footer={<Capacities list={members} defaultCapacity={defaultCapacity} refused={reply && 'capacityRefused' in reply ? reply.capacityRefused : null} />}
		>
			{created ? <InviteLink url={created.url} /> : null}
			<InviteForm lastResult={reply && 'result' in reply ? reply.result : undefined} />
		</SettingsList>
	)
}
