import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type Availability, type Role } from '#app/.server/api.ts'
import { listOrToast, refusalToast, requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Confirm } from '#app/components/confirm.tsx'
import { Pagination } from '#app/components/pagination.tsx'
import { SearchForm } from '#app/components/search-form.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { input } from '#app/components/ui/field.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage, isOwner, mayChangeMember, mayResetTwoFactor } from '#common/roles.ts'

type Member = { userId: string; name: string; email: string; role: Role; availability: Availability; twoFactorEnabled: boolean; joinedAt: string }
type MemberList = { members: Member[]; page: number; limit: number; total: number }

const availabilities: Availability[] = ['online', 'busy', 'offline']

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const search = url.searchParams.get('search') ?? ''
	const t = await serverT(locale)
	const { list, failure } = await listOrToast(
		api.get<MemberList>(`/workspaces/${user.workspace.id}/members`, { page: url.searchParams.get('page'), search }),
		{ members: [], page: 1, limit: 10, total: 0 },
		{ locale, request: args.request, title: t('team.loadFailed') },
	)
	const me = list.members.find((member) => member.userId === user.id)
	// Destructive actions ask first, on the same page (?remove=, ?transfer=, ?resetTwoFactor=, ?leave), so they work without JavaScript.
	const confirming = {
		remove: list.members.find((member) => member.userId === url.searchParams.get('remove')) ?? null,
		resetTwoFactor: list.members.find((member) => member.userId === url.searchParams.get('resetTwoFactor')) ?? null,
		transfer: list.members.find((member) => member.userId === url.searchParams.get('transfer')) ?? null,
		leave: url.searchParams.has('leave'),
	}
	return { title: t('team.title'), locale, user, list, search, failure, availability: me?.availability ?? null, confirming }
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(request)
	const intent = String(form.get('intent') ?? '')
	const userId = String(form.get('userId') ?? '')
	const t = await serverT(locale)
	const workspace = `/workspaces/${user.workspace.id}`
	const member = `${workspace}/members/${encodeURIComponent(userId)}`
	const here = `/${locale}/dashboard/team-members`
	const calls: Record<string, () => Promise<unknown>> = {
		role: () => api.patch(member, { role: form.get('role') }),
		remove: () => api.delete(member),
		resetTwoFactor: () => api.post(`${member}/two-factor/reset`),
		transfer: () => api.post(`${workspace}/transfer-ownership`, { userId }),
		leave: () => api.post(`${workspace}/leave`),
		availability: () => api.patch(`${workspace}/members/me`, { availability: form.get('availability') }),
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
	const { title, locale, user, list, search, failure, availability, confirming } = useLoaderData<typeof loader>()
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const base = `/${locale}/dashboard/team-members`
	const date = useDateFormat()
	const role = user.workspace.role
	const manages = canManage(role)
	return (
		<>
			<ToastMessage toast={failure} />
			<div className={table.toolbar}>
				<div className={styles.pageHeader}>
					<h1 className={styles.pageTitle}>{title}</h1>
					<p className={styles.pageLead}>{t('team.lead', { workspace: user.workspace.name })}</p>
				</div>
				{availability ? (
					<Form method="post" className={table.search}>
						<input type="hidden" name="intent" value="availability" />
						<label htmlFor="my-availability">{t('team.myAvailability')}</label>
						<select
							id="my-availability"
							name="availability"
							defaultValue={availability}
							key={availability}
							className={input}
							onChange={(event) => event.currentTarget.form?.requestSubmit()}
						>
							{availabilities.map((value) => (
								<option key={value} value={value}>
									{t(`availability.${value}`)}
								</option>
							))}
						</select>
						{hydrated ? null : (
							<button type="submit" className={button.outline}>
								{t('actions.save')}
							</button>
						)}
					</Form>
				) : null}
			</div>

			{confirming.remove ? (
				<Confirm
					title={t('team.removeTitle', { name: confirming.remove.name })}
					text={t('team.removeText', { name: confirming.remove.name, workspace: user.workspace.name })}
					fields={{ intent: 'remove', userId: confirming.remove.userId, name: confirming.remove.name }}
					confirm={t('team.remove')}
					cancel={base}
				/>
			) : null}
			{confirming.resetTwoFactor && manages ? (
				<Confirm
					title={t('team.resetTwoFactorTitle', { name: confirming.resetTwoFactor.name })}
					text={t('team.resetTwoFactorText', { name: confirming.resetTwoFactor.name })}
					fields={{ intent: 'resetTwoFactor', userId: confirming.resetTwoFactor.userId, name: confirming.resetTwoFactor.name }}
					confirm={t('team.resetTwoFactor')}
					cancel={base}
				/>
			) : null}
			{confirming.transfer && isOwner(role) ? (
				<Confirm
					title={t('team.transferTitle', { name: confirming.transfer.name })}
					text={t('team.transferText', { name: confirming.transfer.name })}
					fields={{ intent: 'transfer', userId: confirming.transfer.userId, name: confirming.transfer.name }}
					confirm={t('team.transfer')}
					cancel={base}
				/>
			) : null}
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

			<div className={table.wrapper}>
				<table className={`${table.table} ${table.list}`}>
					<caption className="visually-hidden">{title}</caption>
					<thead>
						<tr>
							<th className={table.th}>{t('team.name')}</th>
							<th className={table.th}>{t('auth.fields.email')}</th>
							<th className={table.th}>{t('team.role')}</th>
							<th className={table.th}>{t('team.availability')}</th>
							<th className={table.th}>{t('team.twoFactor')}</th>
							<th className={table.th}>{t('team.joined')}</th>
							<th className={table.th}>
								<span className="visually-hidden">{t('actions.label')}</span>
							</th>
						</tr>
					</thead>
					<tbody>
						{list.members.map((member) => {
							const self = member.userId === user.id
							const editable = !self && mayChangeMember(role, member.role)
							// The owner resets anyone's but their own; an admin, an agent's (the API says the rest, e.g. an account of several workspaces).
							const resettable = member.twoFactorEnabled && !self && mayResetTwoFactor(role, member.role)
							return (
								<tr key={member.userId} data-member={member.email}>
									<td className={table.td} data-label={t('team.name')}>
										<bdi>{member.name}</bdi>
										{self ? <span className={table.badge}>{t('team.you')}</span> : null}
									</td>
									<td className={table.td} data-label={t('auth.fields.email')}>
										<bdi dir="ltr">{member.email}</bdi>
									</td>
									<td className={table.td} data-label={t('team.role')}>
										{editable ? (
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
										) : (
											t(`roles.${member.role}`)
										)}
									</td>
									<td className={table.td} data-label={t('team.availability')}>
										<span>{t(`availability.${member.availability}`)}</span>
									</td>
									<td className={table.td} data-label={t('team.twoFactor')}>
										<span>{member.twoFactorEnabled ? t('team.twoFactorOn') : t('team.twoFactorOff')}</span>
									</td>
									<td className={table.td} data-label={t('team.joined')}>
										<span>{date(member.joinedAt)}</span>
									</td>
									<td className={table.td}>
										<div className={table.actions}>
											{editable ? (
												<Link to={`${base}?remove=${member.userId}`} className={button.ghost} aria-label={t('team.removeTitle', { name: member.name })}>
													{t('team.remove')}
												</Link>
											) : null}
											{resettable ? (
												<Link
													to={`${base}?resetTwoFactor=${member.userId}`}
													className={button.ghost}
													aria-label={t('team.resetTwoFactorTitle', { name: member.name })}
												>
													{t('team.resetTwoFactor')}
												</Link>
											) : null}
											{isOwner(role) && !self ? (
												<Link to={`${base}?transfer=${member.userId}`} className={button.ghost} aria-label={t('team.transferTitle', { name: member.name })}>
													{t('team.transfer')}
												</Link>
											) : null}
											{self && !isOwner(member.role) ? (
												<Link to={`${base}?leave`} className={button.ghost}>
													{t('team.leave')}
												</Link>
											) : null}
										</div>
									</td>
								</tr>
							)
						})}
					</tbody>
				</table>
				{list.members.length === 0 ? <p className={table.empty}>{t('team.noMatch', { search })}</p> : null}
			</div>
			<Pagination page={list.page} limit={list.limit} total={list.total} />
		</>
	)
}
