import { getCollectionProps, getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type TeamJson } from '#app/.server/api.ts'
import { confirmedDeletion, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { createTeam, deleteTeam, listTeams, replaceTeamMembers, teamCandidates, updateTeam } from '#app/.server/teams.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { SettingsList } from '#app/components/settings-list.tsx'
import { IsolatedText } from '#app/components/ui/isolated-text.tsx'
import { FormActions } from '#app/components/ui/button.tsx'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { canManage } from '#common/roles.ts'
import { waitMinutesLimits } from '#common/notifications.ts'
import { teamLimits } from '#common/teams.ts'
import { languageOf } from '#locales/languages.ts'
import { teamSchema } from './$lang.dashboard.settings.teams.schema.ts'
import * as styles from './dashboard.css.ts'

// The workspace channel's events this page shows reload it (app/realtime/use-workspace-events.ts).
export const handle = { live: ['team.'] }

const loadTeamSchema = () => import('./$lang.dashboard.settings.teams.schema.ts').then((module) => module.teamSchema)

type Candidate = { userId: string; name: string }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	// Everyone reads the teams; owners and admins manage them, as the API allows, choosing among the workspace's members.
	const manages = canManage(user.workspace.role)
	const [teams, candidates] = await Promise.all([
		listTeams(api, user.workspace.id),
		manages ? teamCandidates(api, user.workspace.id) : Promise.resolve([]),
	]).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const url = new URL(args.request.url)
	const pick = (id: string | null) => (manages ? (teams.find((team) => team.id === id) ?? null) : null)
	const t = await serverT(locale)
	return {
		title: t('teams.title'),
		locale,
		teams,
		candidates,
		manages,
		editing: pick(url.searchParams.get('edit')),
		deleting: pick(url.searchParams.get('delete')),
	}
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const workspaceId = user.workspace.id
	const here = `/${locale}/dashboard/settings/teams`

	if (formData.get('intent') === 'delete') {
		const name = String(formData.get('name') ?? '')
		return confirmedDeletion(() => deleteTeam(api, workspaceId, String(formData.get('teamId') ?? '')), {
			locale,
			request,
			here,
			done: t('teams.deleted', { name }),
			goneIsDone: true,
		})
	}

	const submission = parseWithZod(formData, { schema: teamSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	const { teamId, userIds, ...values } = submission.value
	const team = { ...values, description: values.description || null }
	try {
		if (teamId) {
			await updateTeam(api, workspaceId, teamId, team)
			await replaceTeamMembers(api, workspaceId, teamId, userIds)
		} else await createTeam(api, workspaceId, { ...team, userIds })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	return redirectWithToast(here, { type: 'success', title: t(teamId ? 'teams.saved' : 'teams.created', { name: team.name }) })
}

export default function Teams() {
	const { title, locale, teams, candidates, manages, editing, deleting } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/settings/teams`
	// A new form after each navigation: a team created, the next one starts empty (a refused one comes back with what was typed).
	const { key } = useLocation()
	return (
		<SettingsList
			title={title}
			lead={t('teams.lead')}
			note={manages ? null : t('teams.readOnly')}
			deletion={{
				asking: deleting && {
					title: t('teams.deleteTitle', { name: deleting.name }),
					text: t('teams.deleteText'),
					fields: { intent: 'delete', teamId: deleting.id, name: deleting.name },
					confirm: t('actions.delete'),
				},
				error: reply && 'deleteError' in reply ? reply.deleteError : null,
				failedTitle: t('teams.deleteFailed'),
				cancel: base,
			}}
			list
			columns={[
				{ header: t('teams.name'), cell: (team) => <bdi>{team.name}</bdi> },
				{
					header: t('teams.description'),
					cell: (team) => (team.description ? <p dir="auto">{team.description}</p> : null),
				},
				{ header: t('teams.members'), cell: (team) => <TeamMembers team={team} language={languageOf(locale).tag} /> },
				{ header: t('teams.autoAssign'), cell: (team) => <span>{team.autoAssign ? t('teams.on') : t('teams.off')}</span> },
			]}
			rows={teams}
			rowKey={(team) => team.id}
			rowActions={
				manages
					? (team) => ({
							edit: { to: `${base}?edit=${team.id}`, label: t('teams.edit', { name: team.name }) },
							remove: { to: `${base}?delete=${team.id}`, label: t('teams.deleteTitle', { name: team.name }) },
						})
					: undefined
			}
			empty={t('teams.none')}
		>
			{manages ? (
				<TeamForm
					key={`${editing?.id ?? 'new'}-${key}`}
					base={base}
					editing={editing}
					candidates={candidates}
					lastResult={reply && 'result' in reply ? reply.result : undefined}
				/>
			) : null}
		</SettingsList>
	)
}

/** How many members, then their names as the language lists them, each isolated (a Latin name in an Arabic list). */
function TeamMembers({ team, language }: { team: TeamJson; language: string }) {
	const { t } = useTranslation()
	const parts = new Intl.ListFormat(language, { type: 'unit', style: 'short' }).formatToParts(team.members.map((member) => member.name))
	return (
		<>
			<span>{t('teams.memberCount', { count: team.members.length })}</span>
			{team.members.length ? (
				<p className={styles.pageLead}>{parts.map((part, index) => (part.type === 'element' ? <bdi key={index}>{part.value}</bdi> : part.value))}</p>
			) : null}
		</>
	)
}

/** Creates a team, or changes the one being edited (its name, description, switch and members at once). */
function TeamForm({
	base,
	editing,
	candidates,
	lastResult,
}: {
	base: string
	editing: TeamJson | null
	candidates: Candidate[]
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadTeamSchema, {
		id: editing ? `team-${editing.id}` : 'team-new',
		lastResult,
		defaultValue: editing
			? {
					name: editing.name,
					description: editing.description ?? '',
					autoAssign: editing.autoAssign,
					notifyAfter: String(editing.notifyAfter),
					userIds: editing.members.map((member) => member.userId),
				}
			: { autoAssign: false, notifyAfter: '10', userIds: [] },
	})
	const names = new Map(candidates.map((candidate) => [candidate.userId, candidate.name]))
	// Someone ticked who has left the workspace since (the API's 422): still ticked, to untick, not silently dropped.
	const kept = [fields.userIds.initialValue ?? []].flat().filter((userId): userId is string => typeof userId === 'string' && !names.has(userId))
	const options = [...candidates.map((candidate) => candidate.userId), ...kept]
	const autoAssignHelp = `${fields.autoAssign.id}-help`
	return (
		<section className={styles.section} aria-labelledby="team-form-heading">
			<h2 id="team-form-heading" className={styles.sectionTitle}>
				{editing ? <IsolatedText i18nKey="teams.edit" names={{ name: editing.name }} /> : t('teams.new')}
			</h2>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				{editing ? <input type="hidden" name="teamId" value={editing.id} /> : null}
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field label={t('teams.name')} field={fields.name} type="text" required maxLength={teamLimits.name} autoComplete="off" dir="auto" />
				<div className={fieldStyles.field}>
					<label className={fieldStyles.label} htmlFor={fields.description.id}>
						{t('teams.description')}
					</label>
					<textarea {...getTextareaProps(fields.description)} maxLength={teamLimits.description} rows={2} dir="auto" className={fieldStyles.textarea} />
					<ErrorList id={fields.description.errorId} errors={fields.description.errors} />
				</div>
				<div className={fieldStyles.field}>
					<label className={styles.check}>
						<input {...getInputProps(fields.autoAssign, { type: 'checkbox', ariaDescribedBy: autoAssignHelp })} role="switch" />
						{t('teams.autoAssignSwitch')}
					</label>
					<p id={autoAssignHelp} className={fieldStyles.help}>
						{t('teams.autoAssignHelp')}
					</p>
					<ErrorList id={fields.autoAssign.errorId} errors={fields.autoAssign.errors} />
				</div>
				<Field
					label={t('teams.notifyAfter')}
					help={t('teams.notifyAfterHelp')}
					field={fields.notifyAfter}
					type="number"
					required
					min={waitMinutesLimits.min}
					max={waitMinutesLimits.max}
					step={1}
					inputMode="numeric"
					dir="auto"
				/>
				<fieldset className={fieldStyles.field} aria-describedby={fields.userIds.errors?.length ? fields.userIds.errorId : undefined}>
					<legend className={fieldStyles.label}>{t('teams.members')}</legend>
					<div className={fieldStyles.choices}>
						{getCollectionProps(fields.userIds, { type: 'checkbox', options }).map(({ key, ...props }) => (
							<label key={key} className={fieldStyles.choice}>
								<input {...props} />
								{names.has(props.value) ? <bdi>{names.get(props.value)}</bdi> : t('teams.formerMember')}
							</label>
						))}
					</div>
					<ErrorList id={fields.userIds.errorId} errors={fields.userIds.errors} />
				</fieldset>
				<FormActions submit={editing ? t('teams.save') : t('teams.create')} cancel={editing ? base : undefined} pending={pending} />
			</Form>
		</section>
	)
}
