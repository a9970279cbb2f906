import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { deleteRule, listRules, moveRule, updateRule, type AutomationRuleJson } from '#app/.server/automation.ts'
import { apiFailure, confirmedDeletion } from '#app/.server/forms.ts'
import { listOrToast } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { automationPath } from '#app/components/automation/path.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import * as styles from '#app/components/automation/automation.css.ts'
import { SettingsList } from '#app/components/settings-list.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { languageOf } from '#locales/languages.ts'
import { requireAutomationManager } from './automation.server.ts'

export const handle = { i18n: ['automation'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireAutomationManager(args)
	const t = await serverT(locale)
	const { list: rules, failure } = await listOrToast(listRules(api, user.workspace.id), [], {
		locale,
		request: args.request,
		title: t('automation:loadFailed'),
	})
	const deleteId = new URL(args.request.url).searchParams.get('delete')
	return {
		title: t('automation:title'),
		locale,
		timeZone: user.workspace.timezone ?? 'UTC',
		rules,
		failure,
		deleting: rules.find((rule) => rule.id === deleteId) ?? null,
	}
}

/** A row's buttons (move, switch) and the deletion's confirmation; a refusal is said in its row, or in the confirmation. */
export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireAutomationManager(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const here = automationPath(locale)
	const ruleId = String(formData.get('ruleId') ?? '')
	const name = String(formData.get('name') ?? '')
	const intent = formData.get('intent')
	if (intent === 'delete')
		return confirmedDeletion(() => deleteRule(api, user.workspace.id, ruleId), {
			locale,
			request,
			here,
			done: t('automation:deleted', { name }),
			goneIsDone: true,
		})
	try {
		if (intent === 'move') {
			const direction = formData.get('direction') === 'down' ? 'down' : 'up'
			await moveRule(api, user.workspace.id, ruleId, direction)
			return redirectWithToast(here, { type: 'success', title: t(direction === 'up' ? 'automation:movedUp' : 'automation:movedDown', { name }) })
		}
		if (intent === 'switch') {
			const enabled = formData.get('enabled') === 'true'
			await updateRule(api, user.workspace.id, ruleId, { enabled })
			return redirectWithToast(here, { type: 'success', title: t(enabled ? 'automation:switchedOn' : 'automation:switchedOff', { name }) })
		}
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		return data({ refused: { ruleId, message } }, { status })
	}
	return data({ refused: { ruleId, message: t('automation:unknownIntent') } }, { status: 400 })
}

export default function AutomationRules() {
	const { title, locale, timeZone, rules, failure, deleting } = useLoaderData<typeof loader>()
	const reply = useKeptActionData<typeof action>()
	const { t } = useTranslation('automation')
	const base = automationPath(locale)
	const when = dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'short', timeZone })
	const refused = reply && 'refused' in reply ? reply.refused : null
	return (
		<>
			<ToastMessage toast={failure} />
			<SettingsList
				title={title}
				lead={t('lead')}
				aside={<ButtonLink to={`${base}/new`}>{t('new')}</ButtonLink>}
				deletion={{
					asking: deleting && {
						title: t('deleteTitle', { name: deleting.name }),
						text: t('deleteText'),
						fields: { intent: 'delete', ruleId: deleting.id, name: deleting.name },
						confirm: t('common:actions.delete'),
					},
					error: reply && 'deleteError' in reply ? reply.deleteError : null,
					failedTitle: t('deleteFailed'),
					cancel: base,
				}}
				list
				caption={t('caption')}
				columns={[
					{ header: t('list.order'), cell: (rule) => <span className={styles.order}>{rule.position + 1}</span> },
					{
						header: t('list.name'),
						cell: (rule) => (
							<Link to={`${base}/${rule.id}`}>
								<bdi>{rule.name}</bdi>
							</Link>
						),
					},
					{ header: t('list.event'), cell: (rule) => t(`events.${rule.event}`) },
					{
						header: t('list.state'),
						cell: (rule) => <span className={rule.enabled ? styles.on : styles.muted}>{rule.enabled ? t('list.on') : t('list.off')}</span>,
					},
					{ header: t('list.lastRun'), cell: (rule) => (rule.lastRunAt ? when.format(new Date(rule.lastRunAt)) : t('list.never')) },
				]}
				rows={rules}
				rowKey={(rule) => rule.id}
				rowActions={(rule) => ({
					children: <RuleButtons rule={rule} first={rule === rules[0]} last={rule === rules[rules.length - 1]} />,
					edit: { to: `${base}/${rule.id}`, label: t('edit', { name: rule.name }) },
					remove: { to: `${base}?delete=${rule.id}`, label: t('deleteTitle', { name: rule.name }) },
					refusal: refused?.ruleId === rule.id ? refused.message : null,
				})}
				empty={t('none')}
			/>
		</>
	)
}

/** A row's posted buttons: one place up or down in the run order, on or off. */
function RuleButtons({ rule, first, last }: { rule: AutomationRuleJson; first: boolean; last: boolean }) {
	const { t } = useTranslation('automation')
	const fields = (
		<>
			<input type="hidden" name="ruleId" value={rule.id} />
			<input type="hidden" name="name" value={rule.name} />
		</>
	)
	return (
		<>
			{first ? null : (
				<Form method="post">
					{fields}
					<input type="hidden" name="direction" value="up" />
					<button type="submit" name="intent" value="move" className={button.ghost} aria-label={t('moveUp', { name: rule.name })}>
						{t('list.up')}
					</button>
				</Form>
			)}
			{last ? null : (
				<Form method="post">
					{fields}
					<input type="hidden" name="direction" value="down" />
					<button type="submit" name="intent" value="move" className={button.ghost} aria-label={t('moveDown', { name: rule.name })}>
						{t('list.down')}
					</button>
				</Form>
			)}
			<Form method="post">
				{fields}
				<input type="hidden" name="enabled" value={String(!rule.enabled)} />
				<button
					type="submit"
					name="intent"
					value="switch"
					className={button.ghost}
					aria-label={t(rule.enabled ? 'switchOff' : 'switchOn', { name: rule.name })}
				>
					{rule.enabled ? t('list.turnOff') : t('list.turnOn')}
				</button>
			</Form>
		</>
	)
}
