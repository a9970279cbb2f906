import { getFormProps, getTextareaProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type CannedResponseJson } from '#app/.server/api.ts'
import { createCannedResponse, deleteCannedResponse, getCannedResponse, listCannedResponses, updateCannedResponse } from '#app/.server/canned-responses.ts'
import { confirmedDeletion, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { SettingsList } from '#app/components/settings-list.tsx'
import { SearchForm } from '#app/components/search-form.tsx'
import { FormActions } from '#app/components/ui/button.tsx'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { RowActions } from '#app/components/ui/data-table.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { numberFormat } from '#app/utils/intl.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { cannedLimits } from '#common/canned-responses.ts'
import { languageOf } from '#locales/languages.ts'
import { cannedSchema } from './$lang.dashboard.settings.canned-responses.schema.ts'
import * as cannedStyles from './canned-responses.css.ts'
import * as styles from './dashboard.css.ts'
import { canManage } from '#common/roles.ts'

const loadCannedSchema = () => import('./$lang.dashboard.settings.canned-responses.schema.ts').then((module) => module.cannedSchema)

type CannedResponse = CannedResponseJson

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const search = (url.searchParams.get('search') ?? '').trim().slice(0, cannedLimits.search)
	const cannedResponses = await listCannedResponses(api, user.workspace.id, search).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	// Agents read them (the composer offers them); owners and admins manage them, as the API allows.
	const manages = canManage(user.workspace.role)
	// Editing and deleting open in place (?edit=, ?delete=), so they work without JavaScript; one the search hides is asked for.
	const pick = async (id: string | null) => {
		if (!id || !manages) return null
		return cannedResponses.find((canned) => canned.id === id) ?? (await getCannedResponse(api, user.workspace.id, id).catch(() => null))
	}
	const [editing, deleting] = await Promise.all([pick(url.searchParams.get('edit')), pick(url.searchParams.get('delete'))])
	const t = await serverT(locale)
	const count = numberFormat(languageOf(locale).tag)
	return {
		title: t('canned.title'),
		locale,
		cannedResponses,
		search,
		manages,
		editing,
		deleting,
		limits: {
			shortCode: cannedLimits.shortCode,
			content: cannedLimits.content,
			shortCodeText: count.format(cannedLimits.shortCode),
			contentText: count.format(cannedLimits.content),
		},
	}
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const workspaceId = user.workspace.id
	const here = `/${locale}/dashboard/settings/canned-responses`

	if (formData.get('intent') === 'delete') {
		const done = t('canned.deleted', { shortCode: String(formData.get('shortCode') ?? '') })
		// Gone already: what the user wanted.
		const remove = () => deleteCannedResponse(api, workspaceId, String(formData.get('cannedId') ?? ''))
		return confirmedDeletion(remove, { locale, request, here, done, goneIsDone: true })
	}

	const submission = parseWithZod(formData, { schema: cannedSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	const { cannedId, ...canned } = submission.value
	try {
		if (cannedId) await updateCannedResponse(api, workspaceId, cannedId, canned)
		else await createCannedResponse(api, workspaceId, canned)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	return redirectWithToast(here, { type: 'success', title: t(cannedId ? 'canned.saved' : 'canned.created', { shortCode: canned.shortCode }) })
}

export default function CannedResponses() {
	const { title, locale, cannedResponses, search, manages, editing, deleting, limits } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const deleteError = reply && 'deleteError' in reply ? reply.deleteError : null
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/settings/canned-responses`
	return (
		<SettingsList
			title={title}
			lead={t('canned.lead')}
			note={manages ? null : t('canned.readOnly')}
			deletion={{
				asking: deleting && {
					title: t('canned.deleteTitle', { shortCode: deleting.shortCode }),
					text: t('canned.deleteText'),
					fields: { intent: 'delete', cannedId: deleting.id, shortCode: deleting.shortCode },
					confirm: t('actions.delete'),
				},
				error: deleteError,
				failedTitle: t('canned.deleteFailed'),
				cancel: base,
			}}
			columns={[
				{
					header: t('canned.shortCode'),
					// The code and what can be done with it, in one narrow column: the text has the room, on a phone too.
					className: cannedStyles.codeCell,
					cell: (canned) => (
						<>
							{/* As it is typed in the composer, `/` first, in the code's own direction. */}
							<code className={cannedStyles.shortCode} dir="auto">
								/{canned.shortCode}
							</code>
							{manages ? (
								<RowActions
									className={cannedStyles.actions}
									edit={{ to: `${base}?edit=${canned.id}`, label: t('canned.edit', { shortCode: canned.shortCode }) }}
									remove={{ to: `${base}?delete=${canned.id}`, label: t('canned.deleteTitle', { shortCode: canned.shortCode }) }}
								/>
							) : null}
						</>
					),
				},
				{
					header: t('canned.content'),
					cell: (canned) => (
						<p className={cannedStyles.text} dir="auto">
							{canned.content}
						</p>
					),
				},
			]}
			rows={cannedResponses}
			rowKey={(canned) => canned.id}
			rowProps={() => ({ className: cannedStyles.row })}
			empty={search ? t('canned.noMatch', { search }) : t('canned.none')}
		>
			{manages ? (
				<CannedForm
					key={editing?.id ?? 'new'}
					base={base}
					editing={editing}
					limits={limits}
					lastResult={reply && 'result' in reply ? reply.result : undefined}
				/>
			) : null}

			<SearchForm id="canned-search" label={t('canned.search')} value={search} />
		</SettingsList>
	)
}

/** Creates one, or changes the one being edited: a plain form, checked in the browser and again by the API. */
function CannedForm({
	base,
	editing,
	limits,
	lastResult,
}: {
	base: string
	editing: CannedResponse | null
	limits: { shortCode: number; content: number; shortCodeText: string; contentText: string }
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadCannedSchema, {
		id: editing ? `canned-${editing.id}` : 'canned-new',
		lastResult,
		defaultValue: editing ? { shortCode: editing.shortCode, content: editing.content } : undefined,
	})
	return (
		<section className={styles.section} aria-labelledby="canned-form-heading">
			<h2 id="canned-form-heading" className={styles.sectionTitle}>
				{editing ? t('canned.edit', { shortCode: editing.shortCode }) : t('canned.new')}
			</h2>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				{editing ? <input type="hidden" name="cannedId" value={editing.id} /> : null}
				<FormErrors id={form.errorId} errors={form.errors} />
				<Field
					label={t('canned.shortCode')}
					help={t('canned.shortCodeHelp', { count: limits.shortCode, maximum: limits.shortCodeText })}
					field={fields.shortCode}
					type="text"
					required
					autoComplete="off"
					spellCheck={false}
					dir="auto"
				/>
				<div className={fieldStyles.field}>
					<label className={fieldStyles.label} htmlFor={fields.content.id}>
						{t('canned.content')}
					</label>
					<textarea
						{...getTextareaProps(fields.content, { ariaDescribedBy: `${fields.content.id}-help` })}
						required
						maxLength={cannedLimits.content}
						rows={5}
						dir="auto"
						className={fieldStyles.textarea}
					/>
					<p id={`${fields.content.id}-help`} className={fieldStyles.help}>
						{t('canned.contentHelp', { count: limits.content, maximum: limits.contentText })}
					</p>
					<ErrorList id={fields.content.errorId} errors={fields.content.errors} />
				</div>
				<FormActions submit={editing ? t('canned.save') : t('canned.create')} cancel={editing ? base : undefined} pending={pending} />
			</Form>
		</section>
	)
}
