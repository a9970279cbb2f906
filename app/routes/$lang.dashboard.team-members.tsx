import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type MemberJson } from '#app/.server/api.ts'
import { changeRole, leaveWorkspace, listMembers, removeMember, resetTwoFactor, transferOwnership } from '#app/.server/members.ts'
import { listOrToast, refusalToast, requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { Pagination } from '#app/components/pagination.tsx'
import { SearchForm } from '#app/components/search-form.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import { DataTable, RowActions, RowLink } from '#app/components/ui/data-table.tsx'
import * as table from '#app/components/ui/table.css.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage, isOwner, mayChangeMember, mayResetTwoFactor } from '#common/roles.ts'

type Member = MemberJson

// What is done to another member after asking (?remove=, ?resetTwoFactor=, ?transfer=).
const memberIntents = ['remove', 'resetTwoFactor', 'transfer'] as const

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const search = url.searchParams.get('search') ?? ''
	const t = await serverT(locale)
	const { list, failure } = await listOrToast(
		listMembers(api, user.workspace.id, { page: url.searchParams.get('page'), search }),
		{ members: [], page: 1, limit: 10, total: 0 },
		{ locale, request: args.request, title: t('team.loadFailed') },
	)
	// Destructive actions ask first, on the same page (?remove=, ?transfer=, ?resetTwoFactor=, ?leave), so they work without JavaScript.
	const confirming = {
		remove: list.members.find((member) => member.userId === url.searchParams.get('remove')) ?? null,
		resetTwoFactor: list.members.find((member) => member.userId === url.searchParams.get('resetTwoFactor')) ?? null,
		transfer: list.members.find((member) => member.userId === url.searchParams.get('transfer')) ?? null,
		leave: url.searchParams.has('leave'),
	}
	return { title: t('team.title'), locale, user, list, search, failure, confirming }
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(request)
	const intent = String(form.get('intent') ?? '')
	const userId = String(form.get('userId') ?? '')
	const t = await serverT(locale)
	const workspaceId = user.workspace.id
	const here = `/${locale}/dashboard/team-members`
	const calls: Record<string, () => Promise<unknown>> = {
		role: () => changeRole(api, workspaceId, userId, form.get('role')),
		remove: () => removeMember(api, workspaceId, userId),
		resetTwoFactor: () => resetTwoFactor(api, workspaceId, userId),
		transfer: () => transferOwnership(api, workspaceId, userId),
		leave: () => leaveWorkspace(api, workspaceId),
	}
	// Its own keys only: `toString` is on every object, and was a 500 (the page-form fuzzing found it).
	const call = Object.hasOwn(calls, intent) ? calls[intent] : undefined
	if (!call) return redirectWithToast(here, { type: 'error', title: t('forms.invalid') })
	try {
		await call()
	} catch (error) {
		// The API says why (the owner is protected, an agent may not…): shown as it is.
		return refusalToast(error, { locale, request, to: here, title: t('team.failed') })
	}
	const next = intent === 'leave' ? `/${locale}/dashboard` : here
	return redirectWithToast(next, { type: 'success', title: t(`team.done.${intent}`, { name: String(form.get('name') ?? '') }) })
}

export default function TeamMembers() {
	const { title, locale, user, list, search, failure, confirming } = useLoaderData<typeof loader>()
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/team-members`
	const date = useDateFormat()
	const role = user.workspace.role
	const manages = canManage(role)
	const editable = (member: Member) => member.userId !== user.id && mayChangeMember(role, member.role)
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={table.toolbar}>
				<div className={styles.pageHeader}>
					<h1 className={styles.pageTitle}>{title}</h1>
					<p className={styles.pageLead}>{t('team.lead', { workspace: user.workspace.name })}</p>
				</div>
			</div>

			{memberIntents.map((intent) => {
				const member = confirming[intent]
				const allowed = intent === 'remove' || (intent === 'resetTwoFactor' ? manages : isOwner(role))
				return member && allowed ? (
					<Confirm
						key={intent}
						title={t(`team.${intent}Title`, { name: member.name })}
						text={t(`team.${intent}Text`, { name: member.name, workspace: user.workspace.name })}
						fields={{ intent, userId: member.userId, name: member.name }}
						confirm={t(`team.${intent}`)}
						cancel={base}
					/>
				) : null
			})}
			{confirming.leave && !isOwner(role) ? (
				<Confirm
					title={t('team.leaveTitle', { workspace: user.workspace.name })}
					text={t('team.leaveText')}
					fields={{ intent: 'leave' }}
					confirm={t('team.leave')}
					cancel={base}
				/>
			) : null}

			<SearchForm id="member-search" label={t('team.search')} value={search} />

			<DataTable
				caption={title}
				list
				columns={[
					{
						header: t('team.name'),
						cell: (member) => (
							<>
								<bdi>{member.name}</bdi>
								{member.userId === user.id ? <span className={table.badge}>{t('team.you')}</span> : null}
							</>
						),
					},
					{ header: t('auth.fields.email'), cell: (member) => <bdi dir="ltr">{member.email}</bdi> },
					{ header: t('team.role'), cell: (member) => (editable(member) ? <RoleForm member={member} /> : t(`roles.${member.role}`)) },
					{ header: t('team.availability'), cell: (member) => <span>{t(`availability.${member.availability}`)}</span> },
					{ header: t('team.twoFactor'), cell: (member) => <span>{member.twoFactorEnabled ? t('team.twoFactorOn') : t('team.twoFactorOff')}</span> },
					{ header: t('team.joined'), cell: (member) => <span>{date(member.joinedAt)}</span> },
				]}
				rows={list.members}
				rowKey={(member) => member.userId}
				rowProps={(member) => ({ 'data-member': member.email })}
				actions={(member) => {
					const self = member.userId === user.id
					// The owner resets anyone's but their own; an admin, an agent's (the API says the rest, e.g. an account of several workspaces).
					const resettable = member.twoFactorEnabled && !self && mayResetTwoFactor(role, member.role)
					return (
						<RowActions>
							{editable(member) ? (
								<RowLink to={`${base}?remove=${member.userId}`} label={t('team.removeTitle', { name: member.name })}>
									{t('team.remove')}
								</RowLink>
							) : null}
							{resettable ? (
								<RowLink to={`${base}?resetTwoFactor=${member.userId}`} label={t('team.resetTwoFactorTitle', { name: member.name })}>
									{t('team.resetTwoFactor')}
								</RowLink>
							) : null}
							{isOwner(role) && !self ? (
								<RowLink to={`${base}?transfer=${member.userId}`} label={t('team.transferTitle', { name: member.name })}>
									{t('team.transfer')}
								</RowLink>
							) : null}
							{self && !isOwner(member.role) ? <RowLink to={`${base}?leave`}>{t('team.leave')}</RowLink> : null}
						</RowActions>
					)
				}}
				empty={t('team.noMatch', { search })}
			/>
			<Pagination page={list.page} limit={list.limit} total={list.total} />
		</>
	)
}

/** A member's role, changed in place by those who may. */
function RoleForm({ member }: { member: Member }) {
	const { t } = useTranslation()
	return (
		<Form method="post" className={table.actions}>
			<input type="hidden" name="intent" value="role" />
			<input type="hidden" name="userId" value={member.userId} />
			<input type="hidden" name="name" value={member.name} />
			<label htmlFor={`role-${member.userId}`} className="visually-hidden">
				{t('team.roleOf', { name: member.name })}
			</label>
			<select id={`role-${member.userId}`} name="role" defaultValue={member.role} key={member.role} className={input}>
				<option value="admin">{t('roles.admin')}</option>
				<option value="agent">{t('roles.agent')}</option>
			</select>
			<button type="submit" className={button.outline} aria-label={t('team.saveRoleOf', { name: member.name })}>
				{t('actions.save')}
			</button>
		</Form>
	)
}
