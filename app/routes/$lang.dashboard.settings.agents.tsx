import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type InvitationJson } from '#app/.server/api.ts'
import { createInvitation, listInvitations, resendInvitation, revokeInvitation } from '#app/.server/invitations.ts'
import { listMembers } from '#app/.server/members.ts'
import { apiFailure, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Capacities } from '#app/components/agents/capacities.tsx'
import { Confirm, Refusal } from '#app/components/confirm.tsx'
import { toastWhile } from '#app/components/toaster.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Field, FormErrors, SelectField, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { DataTable, RowActions, RowLink } from '#app/components/ui/data-table.tsx'
import * as table from '#app/components/ui/table.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { inviteSchema } from './$lang.dashboard.settings.agents.schema.ts'
import { pageOf, saveCapacity } from './$lang.dashboard.settings.agents.server.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage } from '#common/roles.ts'

const loadInviteSchema = () => import('./$lang.dashboard.settings.agents.schema.ts').then((module) => module.inviteSchema)

type Invitation = InvitationJson

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** Owners and admins only: anyone else is sent back to the overview. */
async function requireManager(args: LoaderFunctionArgs) {
	const signedIn = await requireUser(args)
	if (!canManage(signedIn.user.workspace.role)) {
		const t = await serverT(signedIn.locale)
		throw await redirectWithToast(`/${signedIn.locale}/dashboard`, { type: 'error', title: t('agents.forbidden') })
	}
	return signedIn
}

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

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireManager(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const workspaceId = user.workspace.id
	const here = `/${locale}/dashboard/settings/agents`

	if (formData.get('intent') === 'capacity') return saveCapacity(api, workspaceId, formData, { locale, request, here: pageOf(request, here) })

	// A failed resend or revoke is said beside its button or in its confirmation, whatever the status.
	const invitationId = String(formData.get('invitationId') ?? '')
	if (formData.get('intent') === 'resend') {
		let answer: { message: string }
		try {
			answer = await resendInvitation(api, workspaceId, invitationId)
		} catch (error) {
			const { message, status } = await apiFailure(error, locale, request)
			return data({ failed: { intent: 'resend' as const, invitationId, message } }, { status })
		}
		return redirectWithToast(here, { type: 'success', title: answer.message })
	}

	if (formData.get('intent') === 'revoke') {
		try {
			await revokeInvitation(api, workspaceId, invitationId)
		} catch (error) {
			const { message, status } = await apiFailure(error, locale, request)
			return data({ failed: { intent: 'revoke' as const, invitationId, message } }, { status })
		}
		return redirectWithToast(here, { type: 'success', title: t('agents.revoked') })
	}

	const submission = parseWithZod(formData, { schema: inviteSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	let invitation: Invitation
	try {
		invitation = await createInvitation(api, workspaceId, submission.value)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	const title = invitation.method === 'email' ? t('agents.sent', { email: invitation.email ?? '' }) : t('agents.created')
	return redirectWithToast(`${here}?created=${invitation.id}`, { type: 'success', title })
}

type Status = 'active' | 'revoked' | 'expired' | 'usedUp'

function statusOf(invitation: Invitation, now: number): Status {
	if (invitation.revoked) return 'revoked'
	if (new Date(invitation.expiresAt).getTime() <= now) return 'expired'
	if (invitation.maxUses !== null && invitation.uses >= invitation.maxUses) return 'usedUp'
	return 'active'
}

export default function Agents() {
	const { title, locale, invitations, created, revoking, members, defaultCapacity } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const failed = reply && 'failed' in reply ? reply.failed : null
	const capacityRefused = reply && 'capacityRefused' in reply ? reply.capacityRefused : null
	const lastResult = reply && 'result' in reply ? reply.result : undefined
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const base = `/${locale}/dashboard/settings/agents`
	const date = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const [form, fields] = useValidatedForm(loadInviteSchema, {
		id: 'invite',
		lastResult,
		defaultValue: { method: 'link', role: 'agent', expiresInDays: '7' },
	})
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{t('agents.lead')}</p>
				{/* This page holds invitations; the people themselves are on the team's page. */}
				<p className={styles.pageLead}>
					<Link to={`/${locale}/dashboard/team-members`}>{t('agents.membersLink')}</Link>
				</p>
			</div>

			{created ? (
				<section className={styles.section} aria-labelledby="created-heading">
					<h2 id="created-heading" className={styles.sectionTitle}>
						{t('agents.linkReady')}
					</h2>
					<InviteLink url={created.url} />
				</section>
			) : null}

			{revoking ? (
				<Confirm
					title={t('agents.revokeTitle')}
					text={t('agents.revokeText')}
					fields={{ intent: 'revoke', invitationId: revoking.id }}
					confirm={t('agents.revoke')}
					cancel={base}
					error={failed?.intent === 'revoke' ? failed.message : null}
				/>
			) : null}
			{/* Where its own place is gone (the invitation no longer listed, its confirmation closed). */}
			{failed &&
			!(failed.intent === 'revoke' ? revoking : invitations.some((invitation) => invitation.id === failed.invitationId && invitation.status === 'active')) ? (
				<Refusal title={t(failed.intent === 'revoke' ? 'agents.revokeFailed' : 'agents.resendFailed')} message={failed.message} />
			) : null}

			<section className={styles.section} aria-labelledby="invite-heading">
				<h2 id="invite-heading" className={styles.sectionTitle}>
					{t('agents.invite')}
				</h2>
				<Form method="post" {...getFormProps(form)} className={formClass}>
					<FormErrors id={form.errorId} errors={form.errors} />
					<SelectField label={t('agents.method')} field={fields.method}>
						<option value="link">{t('agents.methods.link')}</option>
						<option value="email">{t('agents.methods.email')}</option>
					</SelectField>
					<Field label={t('agents.email')} help={t('agents.emailHelp')} field={fields.email} type="email" autoComplete="off" />
					<SelectField label={t('team.role')} field={fields.role}>
						<option value="agent">{t('roles.agent')}</option>
						<option value="admin">{t('roles.admin')}</option>
					</SelectField>
					<Field label={t('agents.expiresInDays')} field={fields.expiresInDays} type="number" min={1} max={30} required />
					<Field label={t('agents.maxUses')} help={t('agents.maxUsesHelp')} field={fields.maxUses} type="number" min={1} max={1000} />
					<Button type="submit" disabled={pending}>
						{t('agents.submit')}
					</Button>
				</Form>
			</section>

			<DataTable
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
				actions={(invitation) =>
					invitation.status === 'active' ? (
						<>
							<RowActions>
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
							</RowActions>
							{failed?.intent === 'resend' && failed.invitationId === invitation.id ? (
								<p role="alert" className={fieldStyles.errors}>
									{t('agents.resendFailedWith', { reason: failed.message })}
								</p>
							) : null}
						</>
					) : null
				}
				empty={t('agents.none')}
			/>

			<Capacities list={members} defaultCapacity={defaultCapacity} refused={capacityRefused} />
		</>
	)
}

/** The link to share: selectable text always, a copy button once JavaScript runs. */
function InviteLink({ url }: { url: string }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	return (
		<div className={table.search}>
			<label htmlFor="invite-link" className="visually-hidden">
				{t('agents.link')}
			</label>
			<input id="invite-link" readOnly value={url} className={input} onFocus={(event) => event.currentTarget.select()} />
			{hydrated ? (
				<button
					type="button"
					className={button.primary}
					onClick={() =>
						void toastWhile(navigator.clipboard.writeText(url), {
							loading: t('agents.copying'),
							success: t('agents.copied'),
							error: t('agents.copyFailed'),
						}).catch(() => {})
					}
				>
					{t('agents.copy')}
				</button>
			) : null}
		</div>
	)
}
