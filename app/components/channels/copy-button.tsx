import { useEffect, useState } from 'react'
import { button } from '#app/components/ui/button.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'

/** Copies `text` to the clipboard; without JavaScript it is not shown, and the text beside it can be selected. */
export function CopyButton({ text, label, copiedLabel, accessibleName }: { text: string; label: string; copiedLabel: string; accessibleName: string }) {
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	useEffect(() => {
		if (!copied) return
		const timer = setTimeout(() => setCopied(false), 2000)
		return () => clearTimeout(timer)
	}, [copied])
	if (!hydrated) return null
	return (
		<button
			type="button"
			className={button.outline}
			aria-label={accessibleName}
			onClick={() => {
				void navigator.clipboard.writeText(text).then(() => setCopied(true))
			}}
		>
			<span aria-live="polite">{copied ? copiedLabel : label}</span>
		</button>
	)
}
