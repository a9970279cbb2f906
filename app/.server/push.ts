import { data } from '@remix-run/node'
import { type Posted, apiFailure } from './forms.ts'
import { refusalToast } from './session.ts'
import { redirectWithToast } from './toast.ts'
import { type ApiClient, type FocusJson, type PushDeviceJson, type PushDevicesJson, type PushTestJson } from './api.ts'

/**
 * Browser push in the web app (docs/decisions/025-notifications.md): the user's devices for the
 * notification settings page, and its forms' intents. Turning push on needs the browser
 * (`PushManager`); testing and removing a device are plain forms.
 */

/** The forms `pushAction` answers, by their `intent`. */
export const pushIntents = ['push-subscribe', 'push-test', 'push-remove'] as const
export type PushIntent = (typeof pushIntents)[number]

export const isPushIntent = (intent: unknown): intent is PushIntent => pushIntents.includes(intent as PushIntent)

/** What the page's loader adds for the component: the key to subscribe with and the devices, newest first. */
export function loadPushDevices(api: ApiClient): Promise<PushDevicesJson> {
	return api.get<PushDevicesJson>('/user/push-subscriptions')
}

/** The answer to `push-subscribe` (a fetcher's): the device, or the API's refusal in the user's words. */
export type PushSubscribeReply = { intent: 'push-subscribe'; device: PushDeviceJson } | { intent: 'push-subscribe'; error: string }

/**
 * The settings page's action for a push form (`isPushIntent(formData.get('intent'))`), with the post
 * as `postedOf` reads it and `here` the page to go back to:
 * - `push-subscribe` (`endpoint`, `p256dh`, `auth`; the component's fetcher): `PushSubscribeReply`;
 * - `push-test` and `push-remove` (`deviceId`): back to `here` with a toast saying what happened.
 */
export async function pushAction({ api, formData, here, t, locale, request }: Posted) {
	const intent = formData.get('intent')
	const field = (name: string) => String(formData.get(name) ?? '')
	if (intent === 'push-subscribe') {
		try {
			const device = await api.post<PushDeviceJson>('/user/push-subscriptions', {
				endpoint: field('endpoint'),
				keys: { p256dh: field('p256dh'), auth: field('auth') },
			})
			return data({ intent, device } satisfies PushSubscribeReply, { status: 201 })
		} catch (error) {
			const { message, status } = await apiFailure(error, locale, request)
			return data({ intent, error: message } satisfies PushSubscribeReply, { status })
		}
	}
	const device = encodeURIComponent(field('deviceId'))
	if (intent === 'push-test') {
		let answer: PushTestJson
		try {
			answer = await api.post<PushTestJson>(`/user/push-subscriptions/${device}/test`)
		} catch (error) {
			return refusalToast(error, { locale, request, to: here, title: t('notifications:push.results.failed', { status: '—' }) })
		}
		const title = t(`notifications:push.results.${answer.result}`, { status: answer.status ?? '—' })
		return redirectWithToast(here, { type: answer.result === 'sent' ? 'success' : 'error', title })
	}
	if (intent !== 'push-remove') throw data({ message: 'Unknown intent' }, { status: 400 })
	try {
		await api.delete(`/user/push-subscriptions/${device}`)
	} catch (error) {
		return refusalToast(error, { locale, request, to: here, title: t('notifications:push.errors.notFound') })
	}
	return redirectWithToast(here, { type: 'success', title: t('notifications:push.removed') })
}

/** The focus resource route's work: the member's tab of `workspaceId` is in front of them, or no longer. */
export function reportFocus(api: ApiClient, workspaceId: string, focused: boolean): Promise<FocusJson> {
	return api.post<FocusJson>(`/workspaces/${encodeURIComponent(workspaceId)}/presence/focus`, { focused })
}
