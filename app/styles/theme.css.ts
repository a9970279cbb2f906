import { createGlobalThemeContract, globalStyle } from '@vanilla-extract/css'
import { radii, themeNames, type ThemeName } from '#common/theme.ts'

const colorNames = [
	'background',
	'foreground',
	'card',
	'cardForeground',
	'muted',
	'mutedForeground',
	'border',
	'input',
	'primary',
	'primaryForeground',
	'secondary',
	'secondaryForeground',
	'accent',
	'accentForeground',
	'destructive',
	'destructiveForeground',
	'success',
	'warning',
	'ring',
] as const
type ColorName = (typeof colorNames)[number]
type Palette = Record<ColorName, string>

/** The theme contract: every colour and the radius, as CSS custom properties (`--color-primary`). */
export const vars = createGlobalThemeContract(
	{
		color: Object.fromEntries(colorNames.map((name) => [name, name])) as Record<ColorName, string>,
		radius: 'radius',
	},
	(value, path) => (path[0] === 'color' ? `color-${String(value)}` : String(value)),
)

type Neutral = { hue: number; saturation: number }
type Accent = { light: [string, string]; dark: [string, string] }

// Neutral greys and accent colours after shadcn's palettes (HSL triplets).
const neutrals = {
	zinc: { hue: 240, saturation: 5 },
	slate: { hue: 215, saturation: 20 },
	stone: { hue: 25, saturation: 6 },
	gray: { hue: 220, saturation: 13 },
	neutral: { hue: 0, saturation: 0 },
} satisfies Record<string, Neutral>

const accents: Partial<Record<ThemeName, Accent & { base: keyof typeof neutrals }>> = {
	red: { base: 'zinc', light: ['0 72.2% 50.6%', '0 85.7% 97.3%'], dark: ['0 72.2% 50.6%', '0 85.7% 97.3%'] },
	rose: { base: 'zinc', light: ['346.8 77.2% 49.8%', '355.7 100% 97.3%'], dark: ['346.8 77.2% 49.8%', '355.7 100% 97.3%'] },
	orange: { base: 'stone', light: ['24.6 95% 53.1%', '60 9.1% 97.8%'], dark: ['20.5 90.2% 48.2%', '60 9.1% 97.8%'] },
	green: { base: 'zinc', light: ['142.1 76.2% 36.3%', '355.7 100% 97.3%'], dark: ['142.1 70.6% 45.3%', '144.9 80.4% 10%'] },
	blue: { base: 'slate', light: ['221.2 83.2% 53.3%', '210 40% 98%'], dark: ['217.2 91.2% 59.8%', '222.2 47.4% 11.2%'] },
	yellow: { base: 'stone', light: ['47.9 95.8% 53.1%', '26 83.3% 14.1%'], dark: ['47.9 95.8% 53.1%', '26 83.3% 14.1%'] },
	violet: { base: 'gray', light: ['262.1 83.3% 57.8%', '210 20% 98%'], dark: ['263.4 70% 50.4%', '210 20% 98%'] },
}

const hsl = (triplet: string) => `hsl(${triplet})`

function palette({ hue, saturation }: Neutral, dark: boolean, accent?: [string, string]): Palette {
	const grey = (lightness: number, sat = saturation) => `${hue} ${sat}% ${lightness}%`
	const ink = grey(4, saturation * 2)
	const [primary, primaryForeground] = accent ?? (dark ? ['0 0% 98%', grey(10)] : [grey(10), '0 0% 98%'])
	const surface = dark ? ink : '0 0% 100%'
	const text = dark ? '0 0% 98%' : ink
	const soft = grey(dark ? 16 : 96)
	return {
		background: hsl(surface),
		foreground: hsl(text),
		card: hsl(surface),
		cardForeground: hsl(text),
		muted: hsl(soft),
		mutedForeground: hsl(grey(dark ? 65 : 45)),
		border: hsl(grey(dark ? 20 : 90)),
		input: hsl(grey(dark ? 20 : 85)),
		primary: hsl(primary),
		primaryForeground: hsl(primaryForeground),
		secondary: hsl(soft),
		secondaryForeground: hsl(text),
		accent: hsl(soft),
		accentForeground: hsl(text),
		destructive: hsl(dark ? '0 62.8% 45%' : '0 72% 45%'),
		destructiveForeground: hsl('0 0% 98%'),
		success: hsl(dark ? '142 70% 45%' : '142 76% 30%'),
		warning: hsl(dark ? '38 92% 55%' : '32 95% 38%'),
		ring: hsl(primary),
	}
}

function colorVars(colors: Palette) {
	return Object.fromEntries(colorNames.map((name) => [vars.color[name], colors[name]]))
}

for (const name of themeNames) {
	const accent = accents[name]
	const neutral = neutrals[accent?.base ?? (name as keyof typeof neutrals)]
	const light = colorVars(palette(neutral, false, accent?.light))
	const dark = colorVars(palette(neutral, true, accent?.dark))
	const root = `:root[data-theme="${name}"]`
	globalStyle(root, { vars: light, colorScheme: 'light' })
	globalStyle(`${root}[data-mode="dark"]`, { vars: dark, colorScheme: 'dark' })
	globalStyle(`${root}[data-mode="system"]`, {
		'@media': { '(prefers-color-scheme: dark)': { vars: dark, colorScheme: 'dark' } },
	})
}

globalStyle(':root', { vars: { [vars.radius]: '0.5rem' } })
for (const radius of radii) globalStyle(`:root[data-radius="${radius}"]`, { vars: { [vars.radius]: `${radius}rem` } })
