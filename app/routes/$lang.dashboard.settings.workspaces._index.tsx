import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { apiFailure, replyFieldErrors, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { listOrToast, refusalToast, requireUser, type Workspace } from '#app/.server/session.ts'
import { deleteWorkspace, getWorkspace, listMyWorkspaces, switchWorkspace, updateWorkspace } from '#app/.server/workspaces.ts'
import { countriesIn, countryOfTimeZone, findCountry, type Country } from '#app/.server/countries.ts'
import { timezones } from '#app/.server/timezones.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { Refusal } from '#app/components/confirm.tsx'
import { Pagination } from '#app/components/pagination.tsx'
import { SearchForm } from '#app/components/search-form.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { Button, FormActions } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import { SettingsList } from '#app/components/settings-list.tsx'
import * as table from '#app/components/ui/table.css.ts'
import { WorkspaceForm } from '#app/components/workspace-form.tsx'
import { AssignmentSettings } from '#app/components/workspace-assignment.tsx'
import { BusinessHoursSettings } from '#app/components/workspace-hours.tsx'
import { CountryField } from '#app/components/country-field.tsx'
import { useDateFormat } from '#app/utils/dates.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { safePath } from '#app/utils/redirect.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import * as styles from './dashboard.css.ts'
import { deleteSchema, updateSchema } from './$lang.dashboard.settings.workspaces._index.schema.ts'
import { saveAssignment } from './$lang.dashboard.settings.workspaces._index.server.ts'
import { saveBusinessHours } from './$lang.dashboard.settings.workspaces._index.hours.server.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage, isOwner } from '#common/roles.ts'

const loadDeleteSchema = () => import('./$lang.dashboard.settings.workspaces._index.schema.ts').then((module) => module.deleteSchema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args, { twoFactor: 'optional' })
	const t = await serverT(locale)
	const url = new URL(args.request.url)
	const search = url.searchParams.get('search') ?? ''
	const { list, failure } = await listOrToast(
		listMyWorkspaces(api, { page: url.searchParams.get('page'), search }),
		{ workspaces: [], page: 1, limit: 10, total: 0 },
		{ locale, request: args.request, title: t('workspaces.loadFailed') },
	)
	// Editing and deleting open in place (?edit=, ?delete=), so they work without JavaScript.
	const pick = async (id: string | null) =>
		id ? (list.workspaces.find((workspace) => workspace.id === id) ?? (await getWorkspace(api, id).catch(() => null))) : null
	const [editing, deleting] = await Promise.all([pick(url.searchParams.get('edit')), pick(url.searchParams.get('delete'))])
	// The edited workspace's country for phone numbers: chosen, or its time zone's (named in the "follow" choice).
	const countries = editing ? countriesIn(locale) : []
	const zoneCountry = editing ? countries.find((country) => country.code === countryOfTimeZone(editing.timezone))?.name : undefined
	return { title: t('workspaces.title'), locale, user, list, search, failure, editing, deleting, timezones, countries, zoneCountry }
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { locale, api } = await requireUser(args, { twoFactor: 'optional' })
	const formData = await formOf(request)
	const intent = formData.get('intent')
	const t = await serverT(locale)
	const signedIn = { locale, request }
	const here = `/${locale}/dashboard/settings/workspaces`

	if (intent === 'switch') {
		const workspaceId = String(formData.get('workspaceId') ?? '')
		try {
			const user = await switchWorkspace(api, workspaceId)
			return redirectWithToast(`/${locale}/dashboard`, { type: 'success', title: t('workspaces.switched', { name: user.workspace?.name ?? '' }) })
		} catch (error) {
			return refusalToast(error, { locale, request, to: safePath(formData.get('redirectTo')) ?? here, title: t('workspaces.switchFailed') })
		}
	}

	if (intent === 'two-factor-requirement') {
		const workspaceId = String(formData.get('workspaceId') ?? '')
		const requireTwoFactor = formData.get('requireTwoFactor') === 'on'
		const back = `${here}?edit=${encodeURIComponent(workspaceId)}`
		try {
			await updateWorkspace(api, workspaceId, { requireTwoFactor })
		} catch (error) {
			// Not the owner (403), the owner without two-step sign-in (409), the database away (503): said beside the box, as ticked.
			const { message, status } = await apiFailure(error, locale, request)
			return data({ intent: 'two-factor-requirement' as const, failed: { message, requireTwoFactor } }, { status })
		}
		return redirectWithToast(back, { type: 'success', title: t(requireTwoFactor ? 'twoFactor.workspace.required' : 'twoFactor.workspace.optional') })
	}

	if (intent === 'assignment') return saveAssignment(api, formData, { locale, request, here })
	if (intent === 'business-hours') return saveBusinessHours(api, formData, { locale, request, here })

	if (intent === 'delete') {
		const submission = parseWithZod(formData, { schema: deleteSchema })
		const beside = { with: { intent: 'delete' as const } }
		if (submission.status !== 'success') return replyInvalid(submission, beside)
		try {
			await deleteWorkspace(api, submission.value.workspaceId, submission.value.confirmName)
		} catch (error) {
			return replyWithApiError(submission, error, { signedIn, ...beside })
		}
		return redirectWithToast(here, { type: 'success', title: t('workspaces.deleted', { name: submission.value.confirmName }) })
	}

	const submission = parseWithZod(formData, { schema: updateSchema })
	const beside = { with: { intent: 'update' as const } }
	if (submission.status !== 'success') return replyInvalid(submission, beside)
	const { workspaceId, countrySearch, country, ...changes } = submission.value
	const chosen = countrySearch ? findCountry(countrySearch, locale) : country || null
	if (chosen === undefined) return replyFieldErrors(submission, { country: [t('countries.notFound', { search: countrySearch })] }, beside)
	try {
		await updateWorkspace(api, workspaceId, { ...changes, country: chosen })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn, ...beside })
	}
	return redirectWithToast(here, { type: 'success', title: t('workspaces.saved', { name: changes.name }) })
}

export default function Workspaces() {
	const { title, locale, user, list, search, failure, editing, deleting, timezones, countries, zoneCountry } = useLoaderData<typeof loader>()
	const actionData = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/settings/workspaces`
	const date = useDateFormat()
	const mayEdit = (workspace: Workspace) => canManage(workspace.role)
	return (
		<>
			<ToastMessage toast={failure} />
			<SettingsList
				title={title}
				lead={t('workspaces.lead')}
				aside={
					<Link to={`${base}/create`} className={button.primary}>
						{t('workspaces.new')}
					</Link>
				}
				list
				columns={[
					{
						header: t('workspaces.name'),
						cell: (workspace) => (
							<>
								<bdi>{workspace.name}</bdi>
								{workspace.id === user.workspace.id ? <span className={table.badge}>{t('workspaces.current')}</span> : null}
							</>
						),
					},
					{ header: t('workspaces.yourRole'), cell: (workspace) => <span>{t(`roles.${workspace.role}`)}</span> },
					{ header: t('workspaces.timezone'), cell: (workspace) => <bdi dir="ltr">{workspace.timezone.replaceAll('_', ' ')}</bdi> },
					{ header: t('workspaces.createdAt'), cell: (workspace) => <span>{date(workspace.createdAt)}</span> },
				]}
				rows={list.workspaces}
				rowKey={(workspace) => workspace.id}
				rowActions={(workspace) => ({
					edit: mayEdit(workspace) ? { to: `${base}?edit=${workspace.id}`, label: t('workspaces.edit', { name: workspace.name }) } : undefined,
					remove: isOwner(workspace.role) ? { to: `${base}?delete=${workspace.id}`, label: t('workspaces.delete', { name: workspace.name }) } : undefined,
					children:
						workspace.id === user.workspace.id ? null : (
							<Form method="post">
								<input type="hidden" name="intent" value="switch" />
								<input type="hidden" name="workspaceId" value={workspace.id} />
								<button type="submit" className={button.outline} aria-label={t('workspaces.switchTo', { name: workspace.name })}>
									{t('workspaces.switch')}
								</button>
							</Form>
						),
				})}
				empty={failure ? null : search ? t('workspaces.noMatch', { search }) : t('workspaces.none')}
				footer={<Pagination page={list.page} limit={list.limit} total={list.total} />}
			>
				{editing && mayEdit(editing) ? (
					<section className={styles.section} aria-labelledby="edit-heading">
						<h2 id="edit-heading" className={styles.sectionTitle}>
							{t('workspaces.edit', { name: editing.name })}
						</h2>
						<WorkspaceForm
							lastResult={actionData?.intent === 'update' ? actionData.result : undefined}
							locale={locale}
							timezones={timezones}
							submitLabel={t('workspaces.save')}
							defaultValue={editing}
							more={
								<WorkspaceCountry
									workspace={editing}
									countries={countries}
									zoneCountry={zoneCountry}
									lastResult={actionData?.intent === 'update' ? actionData.result : undefined}
								/>
							}
						>
							<input type="hidden" name="intent" value="update" />
							<input type="hidden" name="workspaceId" value={editing.id} />
						</WorkspaceForm>
						<AssignmentSettings workspace={editing} refused={actionData?.intent === 'assignment' ? actionData.refused : undefined} />
						<BusinessHoursSettings workspace={editing} locale={locale} refused={actionData?.intent === 'business-hours' ? actionData.refused : undefined} />
						{isOwner(editing.role) ? (
							<TwoFactorRequirement workspace={editing} failed={actionData?.intent === 'two-factor-requirement' ? actionData.failed : undefined} />
						) : null}
						<Link to={base} className={button.ghost}>
							{t('actions.cancel')}
						</Link>
					</section>
				) : null}

				{deleting && isOwner(deleting.role) ? (
					<DeleteWorkspace workspace={deleting} lastResult={actionData?.intent === 'delete' ? actionData.result : undefined} cancel={base} />
				) : null}

				<SearchForm id="workspace-search" label={t('workspaces.search')} value={search} />
			</SettingsList>
		</>
	)
}

/** Where the workspace's local phone numbers are from: its time zone's country unless chosen (issue 27). */
function WorkspaceCountry({
	workspace,
	countries,
	zoneCountry,
	lastResult,
}: {
	workspace: Workspace
	countries: Country[]
	zoneCountry: string | undefined
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const { t } = useTranslation()
	const kept = lastResult?.initialValue?.country
	return (
		<CountryField
			label={t('workspaces.country')}
			help={t('workspaces.countryHelp')}
			select={{
				id: 'workspace-country',
				name: 'country',
				defaultValue: typeof kept === 'string' ? kept : workspace.countryChosen ? (workspace.country ?? '') : '',
				key: JSON.stringify(lastResult?.initialValue ?? null),
			}}
			countries={countries}
			empty={zoneCountry ? t('workspaces.countryFromZone', { country: zoneCountry }) : t('workspaces.countryNone')}
			errors={lastResult?.error?.country ?? undefined}
		/>
	)
}

/** Deleting is final: the owner types the workspace's name to confirm. */
function DeleteWorkspace({ workspace, lastResult, cancel }: { workspace: Workspace; lastResult: SubmissionResult<string[]> | undefined; cancel: string }) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadDeleteSchema, { id: 'delete-workspace', lastResult, shouldValidate: 'onSubmit' })
	return (
		<section className={styles.section} aria-labelledby="delete-heading">
			<h2 id="delete-heading" className={styles.sectionTitle}>
				{t('workspaces.delete', { name: workspace.name })}
			</h2>
			<p>{t('workspaces.deleteWarning')}</p>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<input type="hidden" name="intent" value="delete" />
				<input type="hidden" name="workspaceId" value={workspace.id} />
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field label={t('workspaces.confirmName', { name: workspace.name })} field={fields.confirmName} type="text" required autoComplete="off" />
				<FormActions submit={t('workspaces.deleteForever')} cancel={cancel} pending={pending} variant="destructive" />
			</Form>
		</section>
	)
}

/** The owner's choice: every member must have two-step sign-in on to use the workspace. */
function TwoFactorRequirement({ workspace, failed }: { workspace: Workspace; failed?: { message: string; requireTwoFactor: boolean } }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'two-factor-requirement'
	return (
		<Form method="post" className={formClass} aria-labelledby="two-factor-requirement-heading">
			<h3 id="two-factor-requirement-heading" className={styles.sectionTitle}>
				{t('twoFactor.title')}
			</h3>
			<input type="hidden" name="intent" value="two-factor-requirement" />
			<input type="hidden" name="workspaceId" value={workspace.id} />
			{failed ? <Refusal title={t('twoFactor.workspace.saveFailed')} message={failed.message} /> : null}
			<label className={styles.check} key={String(failed?.requireTwoFactor ?? workspace.requireTwoFactor)}>
				<input
					type="checkbox"
					name="requireTwoFactor"
					defaultChecked={failed?.requireTwoFactor ?? workspace.requireTwoFactor}
					aria-describedby="two-factor-requirement-help"
				/>
				{t('twoFactor.workspace.require')}
			</label>
			<p id="two-factor-requirement-help">{t('twoFactor.workspace.help')}</p>
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('twoFactor.workspace.save')}
				</Button>
			</div>
		</Form>
	)
}
