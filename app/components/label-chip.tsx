import { type LabelSummary } from '#app/utils/labels.ts'
import * as styles from './label-chip.css.ts'

/** A label as a small coloured chip. */
export function LabelChip({ label }: { label: LabelSummary }) {
	return (
		<span className={styles.chip}>
			<span className={styles.swatch} style={{ background: label.color }} aria-hidden="true" />
			{label.title}
		</span>
	)
}
