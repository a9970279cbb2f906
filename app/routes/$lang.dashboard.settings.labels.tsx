import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { confirmedDeletion, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { createLabel, deleteLabel, listLabels, updateLabel } from '#app/.server/labels.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { LabelChip } from '#app/components/label-chip.tsx'
import { FormActions } from '#app/components/ui/button.tsx'
import { Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import { SettingsList } from '#app/components/settings-list.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import * as styles from './dashboard.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { saveSchema } from './$lang.dashboard.settings.labels.schema.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage } from '#common/roles.ts'

// The workspace channel's events this page shows reload it (app/realtime/use-workspace-events.ts).
export const handle = { live: ['label.'] }

const loadSaveSchema = () => import('./$lang.dashboard.settings.labels.schema.ts').then((module) => module.saveSchema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const labels = await listLabels(api, user.workspace.id).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const url = new URL(args.request.url)
	const t = await serverT(locale)
	return {
		title: t('labels.title'),
		locale,
		labels,
		manages: canManage(user.workspace.role),
		editing: labels.find((label) => label.id === url.searchParams.get('edit')) ?? null,
		deleting: labels.find((label) => label.id === url.searchParams.get('delete')) ?? null,
	}
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const workspaceId = user.workspace.id
	const here = `/${locale}/dashboard/settings/labels`

	if (formData.get('intent') === 'delete') {
		const done = t('labels.deleted', { title: String(formData.get('title') ?? '') })
		return confirmedDeletion(() => deleteLabel(api, workspaceId, String(formData.get('labelId') ?? '')), { locale, request, here, done })
	}

	const submission = parseWithZod(formData, { schema: saveSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	const { labelId, ...label } = submission.value
	try {
		if (labelId) await updateLabel(api, workspaceId, labelId, { ...label, description: label.description ?? null })
		else await createLabel(api, workspaceId, label)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	return redirectWithToast(here, { type: 'success', title: t(labelId ? 'labels.saved' : 'labels.created', { title: label.title }) })
}

export default function Labels() {
	const { title, locale, labels, manages, editing, deleting } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const deleteError = reply && 'deleteError' in reply ? reply.deleteError : null
	const lastResult = reply && 'result' in reply ? reply.result : undefined
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const base = `/${locale}/dashboard/settings/labels`
	const [form, fields] = useValidatedForm(loadSaveSchema, {
		id: editing ? `label-${editing.id}` : 'label-new',
		lastResult,
		defaultValue: editing ? { title: editing.title, description: editing.description ?? '', color: editing.color } : { color: '#6366f1' },
	})
	return (
		<SettingsList
			title={title}
			lead={t('labels.lead')}
			deletion={{
				asking:
					deleting && manages
						? {
								title: t('labels.deleteTitle', { title: deleting.title }),
								text: t('labels.deleteText', { count: deleting.contactCount }),
								fields: { intent: 'delete', labelId: deleting.id, title: deleting.title },
								confirm: t('actions.delete'),
							}
						: null,
				error: deleteError,
				failedTitle: t('labels.deleteFailed'),
				cancel: base,
			}}
			columns={[
				{ header: t('labels.name'), cell: (label) => <LabelChip label={label} /> },
				{ header: t('labels.description'), cell: (label) => label.description },
				{ header: t('labels.contacts'), cell: (label) => <Link to={`/${locale}/dashboard/contacts?label=${label.id}`}>{label.contactCount}</Link> },
			]}
			rows={labels}
			rowKey={(label) => label.id}
			rowActions={
				manages
					? (label) => ({
							edit: { to: `${base}?edit=${label.id}`, label: t('labels.edit', { title: label.title }) },
							remove: { to: `${base}?delete=${label.id}`, label: t('labels.deleteTitle', { title: label.title }) },
						})
					: undefined
			}
			empty={t('labels.none')}
		>
			{manages ? (
				<section className={styles.section} aria-labelledby="label-form-heading">
					<h2 id="label-form-heading" className={styles.sectionTitle}>
						{editing ? t('labels.edit', { title: editing.title }) : t('labels.new')}
					</h2>
					<Form method="post" {...getFormProps(form)} className={formClass}>
						{editing ? <input type="hidden" name="labelId" value={editing.id} /> : null}
						<FormErrors id={form.errorId} errors={form.errors} />
						<Field label={t('labels.name')} help={t('labels.titleRule')} field={fields.title} type="text" required autoComplete="off" />
						<Field label={t('labels.description')} field={fields.description} type="text" autoComplete="off" />
						<Field label={t('labels.color')} field={fields.color} type="color" required />
						<FormActions submit={editing ? t('labels.save') : t('labels.create')} cancel={editing ? base : undefined} pending={pending} />
					</Form>
				</section>
			) : null}
		</SettingsList>
	)
}
