import { data, type ActionFunctionArgs } from '@remix-run/node'
import { type ImportResult } from '#app/.server/api.ts'
import { bulkContacts, deleteContact, importContacts, mergeContact, optInContact } from '#app/.server/contacts.ts'
import { findCountry } from '#app/.server/countries.ts'
import { apiFailure, postedOf, type Posted } from '#app/.server/forms.ts'
import { refusalToast, requireUser, type SignedIn } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formOf } from '#app/utils/http.ts'

/** What each of the page's forms is given, the workspace, and the list as the page showed it. */
type ContactsPost = Posted & { workspaceId: string; back: string }

/** The contacts page's action: each form names its intent, answered by the function of that name below; the bulk bar names none. */
export async function contactsAction(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	const posted: ContactsPost = {
		...(await postedOf(request, formData, { locale, api }, `/${locale}/dashboard/contacts`)),
		workspaceId: user.workspace.id,
		back: listAddress(locale, formData),
	}
	switch (String(formData.get('intent') ?? '')) {
		case 'import':
			return importCsv(posted)
		case 'opt-in':
			return optIn(posted)
		case 'merge':
			return merge(posted)
		case 'delete':
			return deleteOne(posted)
		default:
			return applyToTicked(posted)
	}
}

/**
 * The list's query as the page had it, parsed again (a posted value is no path nor header text of its
 * own), and only when it fits in a Location header.
 */
function listAddress(locale: SignedIn['locale'], formData: FormData) {
	const keptParams = new URLSearchParams(String(formData.get('search') ?? ''))
	// The rows' ticks are not kept once acted on.
	keptParams.delete('select')
	keptParams.delete('index')
	const kept = keptParams.toString()
	return `/${locale}/dashboard/contacts${kept && kept.length <= 2000 ? `?${kept}` : ''}`
}

/** The list with one contact open beside it. */
const contactAddress = (locale: SignedIn['locale'], contactId: string) => `/${locale}/dashboard/contacts?contact=${encodeURIComponent(contactId)}`

/** The import's answer, shown in place under its form: the report, or why there is none, with the country it was read with. */
const importAnswer = (answer: { problem: string | null; result: ImportResult | null; country: string }, status?: number) =>
	data({ intent: 'import' as const, ...answer }, status ? { status } : undefined)

async function importCsv({ api, formData, workspaceId, t, locale, request }: ContactsPost) {
	const file = formData.get('file')
	if (!(file instanceof File) || file.size === 0)
		return importAnswer({ problem: t('contacts.import.noFile'), result: null, country: String(formData.get('country') ?? '') }, 400)
	// The country of numbers without their prefix: the picker's choice, or what its search box says without JavaScript.
	const search = String(formData.get('countrySearch') ?? '').trim()
	const country = search ? findCountry(search, locale) : String(formData.get('country') ?? '')
	if (country === undefined)
		return importAnswer({ problem: t('countries.notFound', { search }), result: null, country: String(formData.get('country') ?? '') }, 400)
	try {
		const result = await importContacts(api, workspaceId, await file.text(), country)
		return importAnswer({ problem: null, result, country })
	} catch (error) {
		const failed = await apiFailure(error, locale, request)
		return importAnswer({ problem: failed.message, result: null, country }, failed.status)
	}
}

async function optIn({ api, formData, workspaceId, t, locale, request }: ContactsPost) {
	const contactId = String(formData.get('contactId') ?? '')
	const name = String(formData.get('name') ?? '')
	const shown = contactAddress(locale, contactId)
	try {
		await optInContact(api, workspaceId, contactId)
	} catch (error) {
		return refusalToast(error, { locale, request, to: shown, title: t('contacts.optInFailed') })
	}
	return redirectWithToast(shown, { type: 'success', title: t('contacts.optedIn', { name }) })
}

/** The visitor merged into the contact they may be (`into`); the merged contact is shown. */
async function merge({ api, formData, workspaceId, t, locale, request }: ContactsPost) {
	const contactId = String(formData.get('contactId') ?? '')
	const into = String(formData.get('into') ?? '')
	try {
		const merged = await mergeContact(api, workspaceId, contactId, into)
		return redirectWithToast(contactAddress(locale, merged.id), {
			type: 'success',
			title: t('contacts.merge.done', { name: String(formData.get('name') ?? ''), into: merged.name }),
		})
	} catch (error) {
		return refusalToast(error, { locale, request, to: contactAddress(locale, contactId), title: t('contacts.merge.failed') })
	}
}

async function deleteOne({ api, formData, workspaceId, back, t, locale, request }: ContactsPost) {
	try {
		await deleteContact(api, workspaceId, String(formData.get('contactId') ?? ''))
	} catch (error) {
		return refusalToast(error, { locale, request, to: back, title: t('contacts.deleteFailed') })
	}
	return redirectWithToast(back, { type: 'success', title: t('contacts.deleted', { name: String(formData.get('name') ?? '') }) })
}

/** Bulk actions on the ticked rows; deleting asks once more (`confirmed`). */
async function applyToTicked({ api, formData, workspaceId, back, t, locale, request }: ContactsPost) {
	const contactIds = formData.getAll('contactIds').map(String)
	const bulkAction = String(formData.get('bulkAction') ?? '')
	if (contactIds.length === 0) return redirectWithToast(back, { type: 'warning', title: t('contacts.bulk.none') })
	if (bulkAction === 'delete' && formData.get('confirmed') !== 'yes')
		return data({ intent: 'confirm-delete' as const, contactIds, problem: null, result: null })
	try {
		const { affected } = await bulkContacts(api, workspaceId, { action: bulkAction, contactIds, labelId: String(formData.get('labelId') ?? '') || undefined })
		return redirectWithToast(back, {
			type: 'success',
			title: t(`contacts.bulk.done.${bulkAction === 'delete' ? 'delete' : bulkAction === 'unlabel' ? 'unlabel' : 'label'}`, { count: affected }),
		})
	} catch (error) {
		return refusalToast(error, { locale, request, to: back, title: t('contacts.bulk.failed') })
	}
}
