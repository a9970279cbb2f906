import { kindPaths } from '#app/components/inbox/channel-icon.tsx'
import * as styles from './channels.css.ts'

export const channelKinds = ['link', 'whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'api'] as const
export type Kind = (typeof channelKinds)[number]

// Each kind's colour and a two-letter mark: no icon font nor image to download on these pages (nor an emoji, which many systems have no font for).
const marks: Record<Kind, { color: string; mark: string }> = {
	link: { color: '#4f46e5', mark: '' },
	whatsapp: { color: '#0f7a40', mark: 'WA' },
	telegram: { color: '#17699b', mark: 'TG' },
	instagram: { color: '#c1246b', mark: 'IG' },
	facebook: { color: '#1559c4', mark: 'FB' },
	messenger: { color: '#6d28d9', mark: 'MS' },
	api: { color: '#374151', mark: '' },
}

/** A channel kind's badge; decorative, the kind's name is always written beside it. */
export function KindIcon({ kind }: { kind: Kind }) {
	const { color, mark } = marks[kind]
	return (
		<span className={styles.icon} style={{ background: color }} aria-hidden="true">
			{mark || (
				<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
					<path d={kindPaths[kind]} />
				</svg>
			)}
		</span>
	)
}
