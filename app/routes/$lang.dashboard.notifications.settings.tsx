import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { postedOf, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { isPushIntent, loadPushDevices, pushAction } from '#app/.server/push.ts'
import { getNotificationSettings, saveNotificationSettings } from '#app/.server/notifications.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import * as notificationStyles from '#app/components/notifications/notifications.css.ts'
import { PushDevices } from '#app/components/push-devices.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { isolated } from '#app/utils/bidi.tsx'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { notificationMedia, type NotificationKind, type NotificationMedium } from '#common/notifications.ts'
import { notificationSettingsSchema } from './$lang.dashboard.notifications.settings.schema.ts'
import * as styles from './dashboard.css.ts'

const loadSchema = () => import('./$lang.dashboard.notifications.settings.schema.ts').then((module) => module.notificationSettingsSchema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const [settings, push] = await Promise.all([getNotificationSettings(api, user.workspace.id), loadPushDevices(api)]).catch((error: unknown) =>
		rethrowApiError(error, locale, args.request),
	)
	const t = await serverT(locale)
	return { title: t('notifications:settings.title'), locale, workspace: user.workspace.name, ...settings, push }
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	// This browser's push and the user's devices (app/components/push-devices.tsx) post here too.
	if (isPushIntent(formData.get('intent'))) return pushAction(await postedOf(request, formData, { locale, api }, `/${locale}/dashboard/notifications/settings`))
	const submission = parseWithZod(formData, { schema: notificationSettingsSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	const { kinds, sound, ...checked } = submission.value
	// Every row shown is sent whole: an unchecked box is a medium turned off.
	const preferences = Object.fromEntries(
		kinds.map((kind) => [kind, Object.fromEntries(notificationMedia.map((medium) => [medium, checked[medium].includes(kind)]))]),
	)
	try {
		await saveNotificationSettings(api, user.workspace.id, { preferences, sound })
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	const t = await serverT(locale)
	return redirectWithToast(`/${locale}/dashboard/notifications/settings`, { type: 'success', title: t('notifications:settings.saved') })
}

/** What the form shows checked: what was just sent when it was refused (nothing lost), else what is saved. */
function useChecked(saved: ReturnType<typeof useLoaderData<typeof loader>>, sent: Record<string, unknown> | undefined) {
	const asList = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? [] : [value])
	return {
		cell: (kind: NotificationKind, medium: NotificationMedium) => (sent ? asList(sent[medium]).includes(kind) : saved.preferences[kind][medium]),
		sound: sent ? sent.sound === 'on' : saved.sound,
	}
}

/** The member's notifications in this workspace: each kind (of their role) × each medium, and the sound. */
export default function NotificationSettings() {
	const loaded = useLoaderData<typeof loader>()
	const { title, locale, workspace, kinds } = loaded
	const kept = useKeptActionData<typeof action>()
	// The push forms' answers (a fetcher's) are the component's own.
	const reply = kept && 'result' in kept ? kept : undefined
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form] = useValidatedForm(loadSchema, { id: 'notification-settings', lastResult: reply?.result })
	const sent = reply?.result.initialValue as Record<string, unknown> | undefined
	const checked = useChecked(loaded, sent)
	const errors = [...(form.errors ?? []), ...Object.values(form.allErrors).flat()]
	return (
		<>
			<header className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{isolated((values) => t('notifications:settings.lead', values), { workspace })}</p>
			</header>
			<section className={styles.section} aria-labelledby="kinds-heading">
				<h2 id="kinds-heading" className={styles.sectionTitle}>
					{t('notifications:settings.kindsHeading')}
				</h2>
				<Form method="post" {...getFormProps(form)} className={formClass}>
					<FormErrors id={form.errorId} errors={[...new Set(errors)]} />
					<div className={notificationStyles.gridBox} role="region" aria-labelledby="kinds-heading" tabIndex={0}>
						<table className={notificationStyles.grid}>
							<thead>
								<tr>
									<th scope="col" className={notificationStyles.kindCell}>
										{t('notifications:settings.kind')}
									</th>
									{notificationMedia.map((medium) => (
										<th key={medium} scope="col" id={`medium-${medium}`}>
											{t(`notifications:media.${medium}`)}
										</th>
									))}
								</tr>
							</thead>
							<tbody>
								{kinds.map((kind) => (
									<tr key={kind}>
										<th scope="row" id={`kind-${kind}`} className={notificationStyles.kindCell}>
											<input type="hidden" name="kinds" value={kind} />
											{t(`notifications:kindNames.${kind}`)}
										</th>
										{notificationMedia.map((medium) => (
											<td key={medium} className={notificationStyles.checkCell} data-medium={t(`notifications:media.${medium}`)}>
												<input
													type="checkbox"
													name={medium}
													value={kind}
													defaultChecked={checked.cell(kind, medium)}
													key={`${form.key}-${String(checked.cell(kind, medium))}`}
													aria-labelledby={`kind-${kind} medium-${medium}`}
												/>
											</td>
										))}
									</tr>
								))}
							</tbody>
						</table>
					</div>
					<label className={fieldStyles.choice}>
						<input type="checkbox" name="sound" defaultChecked={checked.sound} key={`${form.key}-sound-${String(checked.sound)}`} />
						{t('notifications:settings.sound')}
					</label>
					<Button type="submit" disabled={navigation.state === 'submitting'}>
						{t('notifications:settings.save')}
					</Button>
				</Form>
			</section>
			<PushDevices push={loaded.push} titleClassName={styles.sectionTitle} />
			<p>
				<Link to={`/${locale}/dashboard/notifications`}>{t('notifications:settings.back')}</Link>
			</p>
		</>
	)
}
