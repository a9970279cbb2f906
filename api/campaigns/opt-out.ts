/** The words a customer answers, alone, to stop campaigns: English, French and Arabic by default (`OPT_OUT_WORDS`). */
export const defaultOptOutWords = ['STOP', 'ARRÊT', 'إلغاء']

// Case, accents written or not, spaces and a final full stop or exclamation mark do not matter.
const normalise = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.trim()
		.replace(/[.!؟?]+$/u, '')
		.trim()
		.toLocaleUpperCase('en')

/** Whether a customer's whole message is one of the opt-out words. */
export function isOptOut(body: string, words: readonly string[] = defaultOptOutWords): boolean {
	const said = normalise(body)
	return said !== '' && words.some((word) => normalise(word) === said)
}
