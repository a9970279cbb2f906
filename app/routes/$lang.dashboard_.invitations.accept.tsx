import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { acceptInvitation, invitationInUrl, previewInvitation, type Invitation } from '#app/.server/invitation.ts'
import { getWorkspace, switchWorkspace } from '#app/.server/workspaces.ts'
import { apiRefusal, refusalToast, requireUser } from '#app/.server/session.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { CardPage } from '#app/components/card-page.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { IsolatedText } from '#app/components/ui/isolated-text.tsx'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import * as card from '#app/components/card-page.css.ts'
import * as styles from './invitation.css.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/**
 * The default layout: a signed-in user confirms an invitation (which workspace, who invited, which
 * role) before joining, then chooses whether to open the workspace. Opening the page changes nothing.
 */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args, { workspace: 'optional' })
	const t = await serverT(locale)
	const url = new URL(args.request.url)
	const dashboard = `/${locale}/dashboard`
	const joinedId = url.searchParams.get('joined')
	if (joinedId) {
		const workspace = await getWorkspace(api, joinedId).catch(async (error: unknown) => {
			await apiRefusal(error, locale, args.request)
			return null
		})
		// Nothing to choose: not a member, or already in it.
		if (!workspace || !user.workspace || user.workspace.id === workspace.id) throw redirect(dashboard)
		return data({ step: 'joined' as const, title: t('invitations.joined', { workspace: workspace.name }), locale, workspace, current: user.workspace.name })
	}
	const invitation = invitationInUrl(url)
	if (!invitation) throw redirect(dashboard)
	const { preview, problem, status } = await previewInvitation(api, invitation)
	const title = preview ? t('invitations.confirm.title', { workspace: preview.workspaceName }) : t('invitations.failed')
	const you = { name: user.name, email: user.email }
	return data({ step: 'confirm' as const, title, locale, invitation, preview, problem, you }, { status })
}

export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { locale, api } = await requireUser(args, { workspace: 'optional' })
	const formData = await formOf(request)
	const t = await serverT(locale)
	const dashboard = `/${locale}/dashboard`

	if (formData.get('intent') === 'open') {
		try {
			const switched = await switchWorkspace(api, String(formData.get('workspaceId') ?? ''))
			return redirectWithToast(dashboard, { type: 'success', title: t('workspaces.switched', { name: switched.workspace?.name ?? '' }) })
		} catch (error) {
			return refusalToast(error, { locale, request, to: dashboard, title: t('workspaces.switchFailed') })
		}
	}

	const invitation: Invitation = { code: String(formData.get('code') ?? ''), method: formData.get('method') === 'email' ? 'email' : 'link' }
	try {
		// The user stays where they are: switching is theirs to choose on the next page.
		const joined = await acceptInvitation(api, invitation, { makeCurrent: false })
		// One who had no workspace to stay in is in this one now.
		if (joined.user.workspace?.id === joined.workspace.id)
			return redirectWithToast(dashboard, { type: 'success', title: t('invitations.joined', { workspace: joined.workspace.name }) })
		return redirect(`/${locale}/dashboard/invitations/accept?joined=${encodeURIComponent(joined.workspace.id)}`)
	} catch (error) {
		const failed = await apiFailure(error, locale, request)
		return data({ problem: failed.message }, { status: failed.status })
	}
}

export default function AcceptInvitation() {
	const page = useLoaderData<typeof loader>()
	return <CardPage locale={page.locale}>{page.step === 'joined' ? <Joined {...page} /> : <Confirm {...page} />}</CardPage>
}

/** Why the API refused the invitation, in its words; `titled` under a form that still shows, where the page's title does not say it. */
function Problem({ message, titled = false }: { message: string; titled?: boolean }) {
	const { t } = useTranslation()
	return (
		<div role="alert" className={styles.problem}>
			{titled ? <strong>{t('invitations.failed')}</strong> : null}
			<p>{message}</p>
		</div>
	)
}

function Confirm({ locale, invitation, preview, problem, you }: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { step: 'confirm' }>) {
	const { t } = useTranslation()
	const refused = useKeptActionData<typeof action>()
	const pending = useNavigation().state === 'submitting'
	const dashboard = `/${locale}/dashboard`
	if (!preview) {
		return (
			<>
				<h1 className={card.title}>{t('invitations.failed')}</h1>
				<Problem message={problem ?? ''} />
				<ButtonLink to={dashboard} variant="outline" className={styles.choice}>
					{t('invitations.confirm.back')}
				</ButtonLink>
			</>
		)
	}
	const workspace = { workspace: preview.workspaceName }
	const role = { role: t(`roles.${preview.role}`) }
	return (
		<>
			<div>
				<h1 className={card.title}>
					<IsolatedText i18nKey="invitations.confirm.title" names={workspace} />
				</h1>
				<p className={card.lead}>
					{preview.inviterName ? (
						<IsolatedText i18nKey="invitations.confirm.byInviter" names={{ ...workspace, inviter: preview.inviterName }} values={role} />
					) : (
						<IsolatedText i18nKey="invitations.confirm.byNobody" names={workspace} values={role} />
					)}
				</p>
			</div>
			<p className={styles.notice}>
				<IsolatedText i18nKey="invitations.confirm.signedInAs" names={{ ...workspace, name: you.name, email: you.email }} />
			</p>
			{refused?.problem ? <Problem message={refused.problem} titled /> : null}
			<Form method="post" className={styles.choices}>
				<input type="hidden" name="intent" value="join" />
				<input type="hidden" name="code" value={invitation.code} />
				<input type="hidden" name="method" value={invitation.method} />
				<Button type="submit" disabled={pending} className={styles.choice}>
					<IsolatedText i18nKey="invitations.confirm.join" names={workspace} />
				</Button>
				<ButtonLink to={dashboard} variant="outline" className={styles.choice}>
					{t('invitations.confirm.notNow')}
				</ButtonLink>
			</Form>
		</>
	)
}

function Joined({ locale, workspace, current }: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { step: 'joined' }>) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	return (
		<>
			<div>
				<h1 className={card.title}>
					<IsolatedText i18nKey="invitations.joined" names={{ workspace: workspace.name }} />
				</h1>
				<p className={card.lead}>
					<IsolatedText i18nKey="invitations.member.lead" names={{ workspace: workspace.name, current }} values={{ role: t(`roles.${workspace.role}`) }} />
				</p>
			</div>
			<Form method="post" className={styles.choices}>
				<input type="hidden" name="intent" value="open" />
				<input type="hidden" name="workspaceId" value={workspace.id} />
				<Button type="submit" disabled={pending} className={styles.choice}>
					<IsolatedText i18nKey="invitations.member.open" names={{ workspace: workspace.name }} />
				</Button>
				<ButtonLink to={`/${locale}/dashboard`} variant="outline" className={styles.choice}>
					<IsolatedText i18nKey="invitations.member.stay" names={{ workspace: current }} />
				</ButtonLink>
			</Form>
		</>
	)
}
