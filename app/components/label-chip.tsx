import { type LabelSummary } from '#app/utils/labels.ts'
import * as styles from './label-chip.css.ts'

/** A label as a small coloured chip. */
export function LabelChip({ label }: { label: LabelSummary }) {
	return (
		<span className={styles.chip}>
			<span className={styles.swatch} style={{ background: label.color }} aria-hidden="true" />
			{/* A title written in the other direction keeps its own order (its punctuation too). */}
			<bdi>{label.title}</bdi>
		</span>
	)
}

/** A row of label chips; nothing when there are none. */
export function LabelChips({ labels }: { labels: readonly LabelSummary[] }) {
	if (labels.length === 0) return null
	return (
		<span className={styles.list}>
			{labels.map((label) => (
				<LabelChip key={label.id} label={label} />
			))}
		</span>
	)
}
