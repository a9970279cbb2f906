export const themeNames = ['zinc', 'slate', 'stone', 'gray', 'neutral', 'red', 'rose', 'orange', 'green', 'blue', 'yellow', 'violet'] as const
export type ThemeName = (typeof themeNames)[number]
export const modes = ['light', 'dark', 'system'] as const
export type Mode = (typeof modes)[number]
export const radii = ['0', '0.3', '0.5', '0.75', '1'] as const
export type Radius = (typeof radii)[number]

export type ThemePreference = { theme: ThemeName; mode: Mode; radius: Radius }
export const defaultTheme: ThemePreference = { theme: 'zinc', mode: 'system', radius: '0.5' }

function pick<T extends string>(options: readonly T[], value: unknown, fallback: T): T {
	return typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : fallback
}

/** Reads a preference from anything (a cookie, a form), keeping only known values. */
export function toThemePreference(value: unknown): ThemePreference {
	const record = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
	return {
		theme: pick(themeNames, record.theme, defaultTheme.theme),
		mode: pick(modes, record.mode, defaultTheme.mode),
		radius: pick(radii, record.radius, defaultTheme.radius),
	}
}
