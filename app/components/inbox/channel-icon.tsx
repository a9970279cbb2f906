import { useTranslation } from 'react-i18next'
import * as styles from './inbox.css.ts'

// One simple outline per kind (24 × 24, stroked): enough to tell the channels apart in a list.
export const kindPaths: Record<string, string> = {
	whatsapp: 'M3 21l1.7-4.6A8.5 8.5 0 1 1 8 19.6L3 21z M9 9.5c.5 2.5 2.5 4.5 5 5l1.2-1.2 2 1-.7 1.7c-4.5-.2-8-3.7-8.2-8.2L10 7.1l1 2-1.2 1.2',
	telegram: 'M21 4L3 11l6 2 2 6 3-4 5 4 2-15z M9 13l9-7',
	instagram: 'M4 4h16v16H4z M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8 M17 7h.01',
	facebook: 'M14 8h3V4h-3a4 4 0 0 0-4 4v3H7v4h3v6h4v-6h3l1-4h-4V8z',
	messenger: 'M12 3C7 3 3 6.7 3 11.3c0 2.6 1.3 4.9 3.3 6.4V21l3-1.7c.9.3 1.8.4 2.7.4 5 0 9-3.7 9-8.4S17 3 12 3z M7 14l4-4 2.5 2.5L17 10l-4 4-2.5-2.5z',
	// Angle brackets: code, for an integration's channel.
	api: 'M8 7l-5 5 5 5 M16 7l5 5-5 5 M14 5l-4 14',
	link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1 M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
}

/** The channel's kind as a small icon with its name for assistive technology. */
export function ChannelIcon({ kind }: { kind: string }) {
	const { t } = useTranslation('inbox', { keyPrefix: 'ui' })
	return (
		<svg
			viewBox="0 0 24 24"
			className={styles.icon}
			role="img"
			aria-label={t(`channel.${kind in kindPaths ? kind : 'link'}`)}
			fill="none"
			stroke="currentColor"
			strokeWidth="1.75"
			strokeLinecap="round"
			strokeLinejoin="round"
		>
			<path d={kindPaths[kind] ?? kindPaths.link} />
		</svg>
	)
}
