import { type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, NavLink, Outlet, useLoaderData, useLocation, useRouteError, useRouteLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError, type ApiClient, type InboxSummaryJson } from '#app/.server/api.ts'
import { inboxSummary } from '#app/.server/conversations.ts'
import { lastEvent } from '#app/.server/live.ts'
import { myMembership } from '#app/.server/members.ts'
import { rethrowApiError, twoFactorMissing, userForShell } from '#app/.server/session.ts'
import { listMyWorkspaces } from '#app/.server/workspaces.ts'
import { listNotifications } from '#app/.server/notifications.ts'
import { AvailabilityDot, AvailabilitySwitch } from '#app/components/availability-switch.tsx'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import { InboxNotifications } from '#app/components/inbox/notifications.tsx'
import { NotificationBell } from '#app/components/notifications/bell.tsx'
import { LanguageSwitcher, ThemeSwitcher } from '#app/components/preferences.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { WorkspaceSwitcher } from '#app/components/workspace-switcher.tsx'
import { useFocusPresence } from '#app/components/focus-presence.tsx'
import { ConnectionIndicator, LiveUpdatesPaused } from '#app/realtime/connection-indicator.tsx'
import { useLiveData, useWorkspaceEvents, WorkspaceEventsContext } from '#app/realtime/use-workspace-events.ts'
import { mergeSidebarCounts } from '#app/utils/live-inbox.ts'
import { navigationFor } from '#app/utils/navigation.ts'
import { isolated } from '#app/utils/bidi.tsx'
import { isDatabaseAway, isProfileUnavailable } from '#app/utils/profile-outage.ts'
import { type RootLoader } from '#app/root.tsx'
import { seesOwnTeamsOnly } from '#common/roles.ts'
import * as styles from './dashboard.css.ts'

export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await userForShell(args)
	// A workspace that requires two-step sign-in of a user without it: its API answers 403, so the shell asks it nothing.
	const blocked = user ? twoFactorMissing(user) : false
	// Read before the counts: the channel's events after it are what they lack (the sidebar merges them).
	const since = user?.workspace && !blocked ? await lastEvent(api, user.workspace.id) : null
	// The switcher offers the first hundred; the workspaces page lists them all.
	const [workspaces, inbox, me, notifications] = user?.workspace
		? await Promise.all([
				listMyWorkspaces(api, { limit: 100 })
					.then((list) => list.workspaces)
					.catch((error: unknown) => rethrowApiError(error, locale, args.request)),
				blocked ? null : summaryOrNone(api, user.workspace.id).catch((error: unknown) => rethrowApiError(error, locale, args.request)),
				blocked ? null : orNone(myMembership(api, user.workspace.id), 'Membership').catch((error: unknown) => rethrowApiError(error, locale, args.request)),
				// The bell's latest ten and the unread count.
				blocked
					? null
					: orNone(listNotifications(api, user.workspace.id, { limit: 10 }), 'Notifications').catch((error: unknown) =>
							rethrowApiError(error, locale, args.request),
						),
			])
		: [[], null, null, null]
	// The top bar's availability switch; a member.updated event reads it again (another tab, another device).
	const availability = me?.availability ?? null
	// Whether a new one chimes.
	const sound = user?.notificationSound ?? false
	return { user, locale, workspaces, inbox, availability, notifications, sound, since, blocked, realtime: args.context.realtime }
}

/**
 * The shell's data (profile, workspaces, counts) is read again after a form is posted and when the
 * page reloads, not for a link followed inside the dashboard: nothing there changed it, and events
 * keep its counts (issue 28).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
	const navigating = currentUrl.href !== nextUrl.href && (!formMethod || formMethod === 'GET')
	const sameLanguage = currentUrl.pathname.split('/')[1] === nextUrl.pathname.split('/')[1]
	return navigating && sameLanguage ? false : defaultShouldRevalidate
}

/** Open conversations assigned to me and to nobody, beside the sidebar's link; the page goes on without them. */
function summaryOrNone(api: ApiClient, workspaceId: string): Promise<InboxSummaryJson | null> {
	return orNone(inboxSummary(api, workspaceId), 'Inbox summary')
}

/** What the shell shows beside the page (counts, the availability switch): the page goes on without it, but for a 401. */
async function orNone<T>(read: Promise<T>, what: string): Promise<T | null> {
	return read.catch((error: unknown) => {
		if (error instanceof ApiError && error.statusCode === 401) throw error
		console.error(`${what} failed:`, error instanceof Error ? error.message : error)
		return null
	})
}

export type DashboardLoader = typeof loader

// The bell and its toasts are on every page of the shell: their words load with it.
export const handle = { i18n: ['notifications'] }

/** The protected layout: sidebar (a drawer on small screens), top bar, then the page. */
export default function DashboardLayout() {
	return (
		<Shell {...useLoaderData<typeof loader>()}>
			<Outlet />
		</Shell>
	)
}

/**
 * A page that could not have the user's profile (the API failed) says so inside the shell, which
 * renders with what it has (docs/specification.txt, section 8: that failure is only logged); other errors are the error screen.
 */
export function ErrorBoundary() {
	const error = useRouteError()
	const shell = useRouteLoaderData<typeof loader>('routes/$lang.dashboard')
	const referrer = useRouteLoaderData<RootLoader>('root')?.referrer
	const { t } = useTranslation()
	const location = useLocation()
	if (!shell || !isProfileUnavailable(error)) return <ErrorScreen referrer={referrer} />
	// The database away for a moment: the error screen's words for a 503, within the shell.
	const [title, hint] = isDatabaseAway(error) ? ['error.titleUnavailable', 'error.descriptionUnavailable'] : ['profile.unavailable', 'profile.unavailableHint']
	return (
		<Shell {...shell}>
			<section className={styles.outage} role="status">
				<h1>{t(title)}</h1>
				<p>{t(hint)}</p>
				<a href={location.pathname + location.search} className={button.primary}>
					{t('profile.tryAgain')}
				</a>
			</section>
		</Shell>
	)
}

type ShellData = ReturnType<typeof useLoaderData<typeof loader>>

/** The workspace channel's events reach every page of the shell. */
function Shell(shell: ShellData & { children: React.ReactNode }) {
	const { user, blocked, realtime } = shell
	const workspace = user?.workspace
	const ownTeamsOnly = workspace ? seesOwnTeamsOnly(workspace.role, workspace.agentsSeeOwnTeams) : false
	const events = useWorkspaceEvents(blocked ? undefined : workspace?.id, { config: realtime, userId: user?.id ?? '' }, ownTeamsOnly)
	// Browser push waits while a tab of the workspace is in front of the member (docs/decisions/025-notifications.md).
	useFocusPresence(blocked ? undefined : workspace?.id)
	return (
		<WorkspaceEventsContext.Provider value={events}>
			<ShellBody {...shell} />
		</WorkspaceEventsContext.Provider>
	)
}

function ShellBody({
	user,
	locale,
	workspaces,
	inbox: loadedInbox,
	availability,
	notifications,
	sound,
	since,
	blocked,
	realtime,
	children,
}: ShellData & { children: React.ReactNode }) {
	const inbox = useLiveData(loadedInbox, since, user?.id ?? '', mergeSidebarCounts)
	const { t } = useTranslation()
	const location = useLocation()
	const items = navigationFor(user?.workspace?.role)
	const base = `/${locale}/dashboard`
	const here = location.pathname + location.search
	return (
		<div className={styles.shell}>
			<aside id="sidebar" className={styles.sidebar} aria-label={t('nav.label')}>
				<a href="#main" className={`${button.ghost} ${styles.closeDrawer}`}>
					{t('nav.close')}
				</a>
				<Link to={base} className={styles.brand}>
					{user?.workspace ? <bdi>{user.workspace.name}</bdi> : t('app.name')}
				</Link>
				<nav className={styles.nav}>
					{(['main', 'settings'] as const).map((group) => {
						const links = items.filter((item) => item.group === group)
						if (links.length === 0) return null
						return (
							<div key={group} className={styles.nav}>
								{group === 'settings' ? <p className={styles.navHeading}>{t('nav.settings')}</p> : null}
								{links.map((item) => (
									<Fragment key={item.path}>
										<NavLink to={base + item.path} end className={styles.navLink}>
											{t(item.label)}
										</NavLink>
										{item.path === '/conversations' && inbox ? <InboxCounts base={base + item.path} {...inbox} /> : null}
									</Fragment>
								))}
							</div>
						)
					})}
				</nav>
			</aside>
			<header className={styles.topbar}>
				<a href="#sidebar" className={`${button.outline} ${styles.menuButton}`}>
					{t('nav.menu')}
				</a>
				{user?.workspace ? <WorkspaceSwitcher locale={locale} current={user.workspace} workspaces={workspaces} /> : null}
				<div className={styles.spacer} />
				<span className={styles.live}>
					<ConnectionIndicator />
				</span>
				{user?.workspace && !blocked ? (
					<NotificationBell
						locale={locale}
						loaded={notifications}
						sound={sound}
						session={{ config: realtime, userId: user.id }}
						workspaceId={user.workspace.id}
					/>
				) : null}
				<div className={styles.wideTools}>
					{availability ? <AvailabilitySwitch id="availability-bar" locale={locale} availability={availability} /> : null}
					<ThemeSwitcher />
					<LanguageSwitcher />
				</div>
				<details className={styles.userMenu}>
					<summary className={button.ghost}>
						{/* On a phone the switch is in this menu: its dot says the state on the menu's button. */}
						{availability ? <AvailabilityDot availability={availability} /> : null}
						<span className={styles.userName} dir="auto">
							{user?.name ?? t('nav.account')}
						</span>
					</summary>
					<div className={styles.userPanel}>
						{user ? <p className={styles.userSummary}>{user.email}</p> : null}
						{/* On a phone the top bar keeps one row: availability, language and appearance move into this menu. */}
						<div className={styles.narrowTools}>
							{availability ? <AvailabilitySwitch id="availability-menu" locale={locale} availability={availability} /> : null}
							<LanguageSwitcher />
							<ThemeSwitcher />
						</div>
						<Link to={`${base}/profile`} className={styles.menuItem}>
							{t('nav.profile')}
						</Link>
						<Form method="post" action={`/${locale}/auth/logout`}>
							<input type="hidden" name="redirectTo" value={here} />
							<button type="submit" className={styles.menuItem}>
								{t('auth.logout')}
							</button>
						</Form>
					</div>
				</details>
			</header>
			<InboxNotifications session={user?.workspace && !blocked ? { config: realtime, userId: user.id } : null} workspaceId={user?.workspace?.id ?? null} />
			<main id="main" className={styles.main}>
				<LiveUpdatesPaused />
				{!user || user.emailVerified ? null : (
					<Form method="post" action={`${base}/profile`} className={styles.banner}>
						<span>{t('profile.unverified', { email: user.email })}</span>
						<input type="hidden" name="intent" value="resend-verification" />
						<input type="hidden" name="redirectTo" value={here} />
						<button type="submit" className={button.outline}>
							{t('profile.resend')}
						</button>
					</Form>
				)}
				{/* The profile says it beside its own set-up. */}
				{blocked && user?.workspace && location.pathname !== `${base}/profile` ? (
					<p className={styles.banner} role="status">
						<span>{isolated((values) => t('twoFactor.requiredBanner', values), { workspace: user.workspace.name })}</span>
						<Link to={`${base}/profile#two-factor`} className={button.outline}>
							{t('twoFactor.setUp')}
						</Link>
					</p>
				) : null}
				{children}
			</main>
		</div>
	)
}

/** Under "Conversations": the open ones that are mine, those nobody has taken, and (for a member of a team) my teams'. */
function InboxCounts({ base, mine, unassigned, myTeams, myTeamIds }: { base: string } & InboxSummaryJson) {
	const { t } = useTranslation()
	return (
		<div className={styles.subNav}>
			<Link to={`${base}?assignee=me`} className={styles.subNavLink}>
				{t('nav.mine')} <span className={styles.navCount}>{mine}</span>
			</Link>
			<Link to={`${base}?assignee=unassigned`} className={styles.subNavLink}>
				{t('nav.unassigned')} <span className={styles.navCount}>{unassigned}</span>
			</Link>
			{myTeamIds.length ? (
				<Link to={`${base}?team=mine`} className={styles.subNavLink}>
					{t('nav.myTeams')} <span className={styles.navCount}>{myTeams}</span>
				</Link>
			) : null}
		</div>
	)
}
