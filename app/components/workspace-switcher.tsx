import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type Workspace } from '#app/.server/session.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { button } from './ui/button.css.ts'
import * as styles from './workspace-switcher.css.ts'

/** The top bar's workspace choice: a select that switches on change, with a button when JavaScript is off. */
export function WorkspaceSwitcher({ locale, current, workspaces }: { locale: string; current: Workspace; workspaces: Workspace[] }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const location = useLocation()
	const others = workspaces.filter((workspace) => workspace.id !== current.id)
	return (
		<Form method="post" action={`/${locale}/dashboard/settings/workspaces`} className={styles.switcher}>
			<input type="hidden" name="intent" value="switch" />
			<input type="hidden" name="redirectTo" value={location.pathname + location.search} />
			<label htmlFor="workspace-switcher" className="visually-hidden">
				{t('workspaces.switcher')}
			</label>
			<select
				id="workspace-switcher"
				name="workspaceId"
				defaultValue={current.id}
				key={current.id}
				className={styles.select}
				onChange={(event) => event.currentTarget.form?.requestSubmit()}
			>
				{/* A name of the other direction keeps its punctuation at its end ("Acme Inc." in Arabic). */}
				<option value={current.id} dir="auto">
					{current.name}
				</option>
				{others.map((workspace) => (
					<option key={workspace.id} value={workspace.id} dir="auto">
						{workspace.name}
					</option>
				))}
			</select>
			{hydrated ? null : (
				<button type="submit" className={button.outline}>
					{t('workspaces.switch')}
				</button>
			)}
			<Link to={`/${locale}/dashboard/settings/workspaces/create`} className={`${button.ghost} ${styles.newWorkspace}`} aria-label={t('workspaces.new')}>
				+
			</Link>
		</Form>
	)
}
