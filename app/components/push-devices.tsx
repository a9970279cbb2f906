import { Form, useFetcher, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type PushDeviceJson, type PushDevicesJson } from '#app/.server/api.ts'
import { Button } from '#app/components/ui/button.tsx'
import { useDateFormat } from '#app/utils/dates.ts'
import * as styles from './push-devices.css.ts'

/** What the browser itself says of push, once the page runs: before that (and without JavaScript) it is `checking`. */
type BrowserPush = 'checking' | 'unsupported' | 'denied' | 'off' | 'working' | { endpoint: string }

const workerPath = '/push-worker.js'

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window

/** Where this browser stands, as it says once the page runs. */
async function browserPush(): Promise<BrowserPush> {
	if (!supported()) return 'unsupported'
	if (Notification.permission === 'denied') return 'denied'
	const subscription = await currentSubscription().catch(() => null)
	return subscription ? { endpoint: subscription.endpoint } : 'off'
}

async function currentSubscription(): Promise<PushSubscription | null> {
	const registration = await navigator.serviceWorker.getRegistration('/')
	return (await registration?.pushManager.getSubscription()) ?? null
}

/** Registers the worker and subscribes with `publicKey`; a subscription of another key (the server's keys changed) is replaced. */
async function subscribe(publicKey: string): Promise<PushSubscription> {
	const registration = await navigator.serviceWorker.register(workerPath, { scope: '/' })
	await navigator.serviceWorker.ready
	// The key as base64url: the Push API takes it so.
	const options = { userVisibleOnly: true, applicationServerKey: publicKey }
	try {
		return await registration.pushManager.subscribe(options)
	} catch (error) {
		const existing = await registration.pushManager.getSubscription()
		if (!existing) throw error
		await existing.unsubscribe()
		return registration.pushManager.subscribe(options)
	}
}

/**
 * The notification settings' browser push (issue 32): turn it on in this browser, send a test,
 * remove; and the user's other devices, each with a test and a removal that are plain forms
 * (they work without JavaScript). The page's loader gives `loadPushDevices(api)`, its action
 * answers the `push-*` intents with `pushAction` (app/.server/push.ts).
 */
export function PushDevices({ push, titleClassName }: { push: PushDevicesJson; titleClassName?: string }) {
	const { t } = useTranslation('notifications')
	const formatDate = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const fetcher = useFetcher<{ intent: 'push-subscribe'; device?: PushDeviceJson; error?: string }>()
	const navigation = useNavigation()
	const [browser, setBrowser] = useState<BrowserPush>('checking')
	const [failure, setFailure] = useState<string | null>(null)
	const busy = navigation.state !== 'idle' && String(navigation.formData?.get('intent') ?? '').startsWith('push-')

	useEffect(() => {
		void browserPush().then(setBrowser)
	}, [])

	async function turnOn() {
		setFailure(null)
		setBrowser('working')
		try {
			// Asked first, within the click: browsers ask the user only from a gesture.
			const permission = await Notification.requestPermission()
			if (permission !== 'granted') return setBrowser(permission === 'denied' ? 'denied' : 'off')
			const { endpoint, keys } = (await subscribe(push.publicKey)).toJSON()
			if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('no subscription')
			// Subscribed here; on once the API has it (the list the page reloads names this endpoint).
			setBrowser({ endpoint })
			fetcher.submit({ intent: 'push-subscribe', endpoint, p256dh: keys.p256dh, auth: keys.auth }, { method: 'post' })
		} catch {
			setFailure(t('push.notTurnedOn'))
			setBrowser('off')
		}
	}

	const hereEndpoint = typeof browser === 'object' ? browser.endpoint : null
	const thisDevice = push.devices.find((device) => device.endpoint === hereEndpoint)
	const working = browser === 'working' || fetcher.state !== 'idle'
	// The API's refusal (an address it does not allow), or what went wrong in the browser.
	const refusal = (fetcher.state === 'idle' ? fetcher.data?.error : undefined) ?? failure
	const forgetHere = () => void currentSubscription().then((subscription) => subscription?.unsubscribe())
	const name = (device: PushDeviceJson) => [device.browser, device.system].filter(Boolean).join(' · ') || t('push.unknownDevice')

	return (
		<section className={styles.section} aria-labelledby="push-heading">
			<h2 id="push-heading" className={titleClassName}>
				{t('push.title')}
			</h2>
			<p className={styles.lead}>{t('push.intro')}</p>

			{/* Turning push on is the browser's (a service worker, the push service): without JavaScript, the page says so. */}
			<noscript>
				<p className={styles.here}>{t('push.needsJavaScript')}</p>
			</noscript>
			<div className={styles.here} data-testid="push-this-browser" hidden={browser === 'checking'}>
				<strong>{t('push.thisBrowser')}</strong>
				{browser === 'unsupported' ? <span>{t('push.unsupported')}</span> : null}
				{browser === 'denied' ? <span>{t('push.denied')}</span> : null}
				{thisDevice ? (
					<>
						<span>{t('push.onHere')}</span>
						<DeviceForms device={thisDevice} busy={busy} onRemove={forgetHere} />
					</>
				) : browser === 'unsupported' || browser === 'denied' ? null : (
					<>
						<span>{t('push.offHere')}</span>
						<Button
							type="button"
							onClick={() => void turnOn()}
							disabled={browser === 'checking' || working}
							aria-describedby={refusal ? 'push-failure' : undefined}
						>
							{working ? t('push.turningOn') : t('push.turnOn')}
						</Button>
					</>
				)}
				{refusal ? (
					<p id="push-failure" role="alert" className={styles.error}>
						{refusal}
					</p>
				) : null}
			</div>

			<h3 id="push-devices-heading">{t('push.devices')}</h3>
			{push.devices.length === 0 ? (
				<p>{t('push.noDevices')}</p>
			) : (
				<ul className={styles.list} aria-labelledby="push-devices-heading">
					{push.devices.map((device) => (
						<li key={device.id} className={styles.item} data-testid="push-device">
							<div>
								<strong>
									<bdi>{name(device)}</bdi>
								</strong>
								{device.id === thisDevice?.id ? ` (${t('push.current')})` : null}
								<div className={styles.dates}>
									{t('push.addedOn', { date: formatDate(device.createdAt) })}
									{' · '}
									{device.lastSuccessAt ? t('push.lastSuccess', { date: formatDate(device.lastSuccessAt) }) : t('push.neverSent')}
								</div>
							</div>
							<DeviceForms device={device} busy={busy} onRemove={device.id === thisDevice?.id ? forgetHere : undefined} />
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

/** A device's test and removal: plain posts to the settings page (`push-test`, `push-remove`). */
function DeviceForms({ device, busy, onRemove }: { device: PushDeviceJson; busy: boolean; onRemove?: () => void }) {
	const { t } = useTranslation('notifications')
	return (
		<div className={styles.actions}>
			<Form method="post" preventScrollReset>
				<input type="hidden" name="deviceId" value={device.id} />
				<Button type="submit" name="intent" value="push-test" variant="secondary" disabled={busy}>
					{t('push.sendTest')}
				</Button>
			</Form>
			<Form method="post" preventScrollReset onSubmit={onRemove}>
				<input type="hidden" name="deviceId" value={device.id} />
				<Button type="submit" name="intent" value="push-remove" variant="ghost" disabled={busy}>
					{t('push.remove')}
				</Button>
			</Form>
		</div>
	)
}
