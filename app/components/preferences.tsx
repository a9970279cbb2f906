import { Form, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type RootLoader } from '#app/root.tsx'
import { defaultTheme, modes, radii, themeNames } from '#common/theme.ts'
import { defaultLocale, languages } from '#locales/languages.ts'
import { button } from './ui/button.css.ts'
import * as styles from './preferences.css.ts'

function useCurrentPath() {
	const location = useLocation()
	return location.pathname + location.search
}

/** Three buttons, one per locale: works without JavaScript, keeps the current page. */
export function LanguageSwitcher() {
	const { t } = useTranslation()
	const rootData = useRouteLoaderData<RootLoader>('root')
	const locale = rootData?.locale ?? defaultLocale
	return (
		<Form method="post" action={`/${locale}/preferences/locale`} reloadDocument className={styles.group} aria-label={t('preferences.language')}>
			<input type="hidden" name="redirectTo" value={useCurrentPath()} />
			{languages.map((language) => (
				<button
					key={language.code}
					type="submit"
					name="locale"
					value={language.code}
					lang={language.tag}
					aria-pressed={language.code === locale}
					className={styles.choice}
				>
					{language.name}
				</button>
			))}
		</Form>
	)
}

/** Theme, light or dark, and corner radius; the server renders the choice, so nothing flashes. */
export function ThemeSwitcher() {
	const { t } = useTranslation()
	const rootData = useRouteLoaderData<RootLoader>('root')
	const locale = rootData?.locale ?? defaultLocale
	const current = rootData?.theme ?? defaultTheme
	return (
		<details className={styles.menu}>
			<summary className={button.ghost}>{t('preferences.appearance')}</summary>
			<Form method="post" action={`/${locale}/preferences/theme`} className={styles.panel} onChange={(event) => event.currentTarget.requestSubmit()}>
				<input type="hidden" name="redirectTo" value={useCurrentPath()} />
				<label className={styles.field}>
					<span>{t('preferences.theme')}</span>
					<select name="theme" defaultValue={current.theme}>
						{themeNames.map((name) => (
							<option key={name} value={name}>
								{t(`themes.${name}`)}
							</option>
						))}
					</select>
				</label>
				<label className={styles.field}>
					<span>{t('preferences.mode')}</span>
					<select name="mode" defaultValue={current.mode}>
						{modes.map((mode) => (
							<option key={mode} value={mode}>
								{t(`modes.${mode}`)}
							</option>
						))}
					</select>
				</label>
				<label className={styles.field}>
					<span>{t('preferences.radius')}</span>
					<select name="radius" defaultValue={current.radius}>
						{radii.map((radius) => (
							<option key={radius} value={radius}>
								{radius}
							</option>
						))}
					</select>
				</label>
				<button type="submit" className={button.primary}>
					{t('preferences.apply')}
				</button>
			</Form>
		</details>
	)
}

export function PreferenceControls() {
	return (
		<div className={styles.controls}>
			<ThemeSwitcher />
			<LanguageSwitcher />
		</div>
	)
}
