import { useTranslation } from 'react-i18next'

// Private-use characters: no translation holds them, so they mark where each name goes.
const mark = (index: number) => `\uE000${index}\uE001`
const marks = /\uE000(\d+)\uE001/

/**
 * A translated sentence with user-written names (a workspace's, a person's) each in a `<bdi>`, so a
 * Latin name keeps its place in an Arabic sentence and the reverse. A name never passes through the
 * translation, so it cannot be read as markup or as another placeholder.
 */
export function IsolatedText({ i18nKey, names, values }: { i18nKey: string; names: Record<string, string>; values?: Record<string, string> }) {
	const { t } = useTranslation()
	const keys = Object.keys(names)
	const text = t(i18nKey, { ...values, ...Object.fromEntries(keys.map((key, index) => [key, mark(index)])) })
	// One element, so a flex or grid parent (a button) does not lay the pieces out apart.
	return <span>{text.split(marks).map((part, index) => (index % 2 === 1 ? <bdi key={index}>{names[keys[Number(part)]!]}</bdi> : part))}</span>
}
