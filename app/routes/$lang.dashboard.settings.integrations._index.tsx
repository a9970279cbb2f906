import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { listAccessTokens, tokenAction, tokenAsked } from '#app/.server/access-tokens.ts'
import { postedOf } from '#app/.server/forms.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { NewTokenSecret, tokenAnswers, TokenForm, TokenList } from '#app/components/access-tokens/tokens.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { canManage } from '#common/roles.ts'
import * as styles from './dashboard.css.ts'

export const handle = { i18n: ['integrations'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** Owners and admins only, as the API allows bot tokens: anyone else goes back to the dashboard with a word why. */
async function requireManager(args: LoaderFunctionArgs | ActionFunctionArgs) {
	const signedIn = await requireUser(args)
	if (!canManage(signedIn.user.workspace.role)) {
		const t = await serverT(signedIn.locale)
		throw await redirectWithToast(`/${signedIn.locale}/dashboard`, { type: 'error', title: t('integrations:tokens.forbidden') })
	}
	return signedIn
}

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireManager(args)
	const tokens = await listAccessTokens(api, user.workspace.id).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const t = await serverT(locale)
	const bots = tokens.filter((token) => token.kind === 'bot')
	return {
		title: t('integrations:tokens.title'),
		locale,
		bots,
		revokingId: tokenAsked(args.request, 'revoke', bots),
		renamingId: tokenAsked(args.request, 'rename', bots),
	}
}

export async function action(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireManager(args)
	const formData = await formOf(args.request)
	// Only bot tokens are made here; a personal one is the profile's.
	if (formData.get('intent') !== 'token-revoke') formData.set('kind', 'bot')
	return tokenAction(await postedOf(args.request, formData, { locale, api }, `/${locale}/dashboard/settings/integrations`), user.workspace.id)
}

export default function Integrations() {
	const { title, locale, bots, revokingId, renamingId } = useLoaderData<typeof loader>()
	const { reply, revokeError, renameResult } = tokenAnswers(useKeptActionData<typeof action>())
	const { t } = useTranslation('integrations')
	return (
		<>
			<header className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{t('tokens.lead')}</p>
			</header>
			{reply?.created ? <NewTokenSecret created={reply.created} /> : null}
			<section className={styles.section} aria-labelledby="bot-tokens-heading">
				<h2 id="bot-tokens-heading" className={styles.sectionTitle}>
					{t('tokens.botHeading')}
				</h2>
				<p className={styles.pageLead}>{t('tokens.botLead')}</p>
				<TokenList
					tokens={bots}
					headingId="bot-tokens-heading"
					here={`/${locale}/dashboard/settings/integrations`}
					revokingId={revokingId}
					revokeError={revokeError}
					renamingId={renamingId}
					renameResult={renameResult}
				/>
				<TokenForm kind="bot" reply={reply} />
			</section>
			<section className={styles.section} aria-labelledby="webhooks-heading">
				<h2 id="webhooks-heading" className={styles.sectionTitle}>
					{t('tokens.webhooksLink')}
				</h2>
				<p className={styles.pageLead}>{t('tokens.webhooksLead')}</p>
				<p>
					<Link to={`/${locale}/dashboard/settings/integrations/webhooks`} className={button.outline}>
						{t('tokens.webhooksLink')}
					</Link>
				</p>
			</section>
		</>
	)
}
