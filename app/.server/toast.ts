import { redirect } from '@remix-run/node'
import { z } from 'zod'
import { combineHeaders } from '#app/utils/http.ts'
import { toastCookie } from './cookies.ts'

export const toastTypes = ['default', 'success', 'error', 'info', 'warning'] as const

const toastSchema = z.object({
	id: z.string().default(() => crypto.randomUUID()),
	type: z.enum(toastTypes).default('default'),
	title: z.string().max(300),
	description: z.string().max(1000).optional(),
	position: z.enum(['top-right', 'top-center', 'bottom-right']).optional(),
})

export type Toast = z.output<typeof toastSchema>
export type ToastInput = z.input<typeof toastSchema>

/** What a browser keeps of one cookie, its name and attributes included: a longer one is dropped whole. */
const cookieBytes = 4096

/**
 * A toast that names what the user typed (a contact's name) can be long: it is shortened to fit,
 * never refused. To fit the schema's lengths, then the cookie: Arabic or emoji take two to four
 * bytes a character before the cookie's base64, so the longer text is halved until it fits.
 */
export async function toastHeaders(toast: ToastInput): Promise<Headers> {
	let fitted = toastSchema.parse({
		...toast,
		title: shortened(toast.title, 300),
		description: toast.description === undefined ? undefined : shortened(toast.description, 1000),
	})
	for (;;) {
		const cookie = await toastCookie.serialize(fitted)
		if (Buffer.byteLength(cookie) <= cookieBytes) return new Headers({ 'Set-Cookie': cookie })
		const description = fitted.description ?? ''
		fitted =
			description.length > fitted.title.length
				? { ...fitted, description: shortened(description, Math.floor(description.length / 2)) }
				: { ...fitted, title: shortened(fitted.title, Math.floor(fitted.title.length / 2)) }
	}
}

function shortened(text: string, max: number): string {
	if (text.length <= max) return text
	let kept = ''
	// Whole characters only: an emoji is not cut in half.
	for (const character of text) {
		if (kept.length + character.length > max - 1) break
		kept += character
	}
	return `${kept}…`
}

/** Redirects and shows `toast` on the next page, with or without JavaScript. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
	return redirect(url, { ...init, headers: combineHeaders(init?.headers, await toastHeaders(toast)) })
}

/** Reads the flash toast of this request and the header that clears it. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
	const raw: unknown = await toastCookie.parse(request.headers.get('Cookie'))
	if (raw === null || raw === undefined) return { toast: null, headers: null }
	const parsed = toastSchema.safeParse(raw)
	return {
		toast: parsed.success ? parsed.data : null,
		headers: new Headers({ 'Set-Cookie': await toastCookie.serialize('', { maxAge: 0 }) }),
	}
}
