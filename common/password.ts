import { z } from 'zod'

export const passwordMinLength = 8
export const passwordMaxLength = 128

// Unicode classes, so an Arabic-Indic digit counts as a number and a Latin letter with an accent as a letter.
const rules = [
	{ message: 'auth:password.tooShort', passes: (password: string) => characters(password) >= passwordMinLength },
	{ message: 'auth:password.lowercase', passes: (password: string) => /\p{Ll}/u.test(password) },
	{ message: 'auth:password.uppercase', passes: (password: string) => /\p{Lu}/u.test(password) },
	{ message: 'auth:password.number', passes: (password: string) => /\p{N}/u.test(password) },
	{ message: 'auth:password.special', passes: (password: string) => /[^\p{L}\p{M}\p{N}]/u.test(password) },
	{ message: 'auth:password.tooLong', passes: (password: string) => characters(password) <= passwordMaxLength },
] as const

/** The translation key of each password rule, in the order they are reported. */
export const passwordMessages = rules.map((rule) => rule.message)

// Code points, not UTF-16 units: an emoji is one character to the person typing it.
function characters(text: string): number {
	return [...text].length
}

/**
 * The shared password rule (docs/specification.txt, section 5), for the browser and the API alike.
 * Every failing rule is reported; each message is a translation key (`auth:password.*`).
 */
export const passwordSchema = z.string().superRefine((password, context) => {
	for (const rule of rules) {
		if (!rule.passes(password)) context.addIssue({ code: z.ZodIssueCode.custom, message: rule.message })
	}
})
