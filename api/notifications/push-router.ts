import { Router, type Request } from 'express'
import { sql } from 'kysely'
import { type ApiContext } from '#api/context.ts'
import { describeAgent } from '#api/auth/user-agent.ts'
import { type PushSubscription } from '#api/db/schema.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { checkOutboundUrl, OutboundAddressRefused } from '#api/http/outbound-address.ts'
import { parseRequest } from '#api/http/validate.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { pushToDevice, type PushResult } from './push.ts'
import { deviceParams, focusBody, subscribeBody } from './push-schemas.ts'

/** A device that receives the user's pushes, as the settings list it. */
export type PushDeviceJson = {
	id: string
	/** The push service's address for it: the page finds "this browser" by it. */
	endpoint: string
	browser: string | null
	system: string | null
	createdAt: string
	lastSuccessAt: string | null
}

/** The key a page subscribes with, and the user's devices, newest first. */
export type PushDevicesJson = { publicKey: string; devices: PushDeviceJson[] }

/** What a test push did: sent, the device removed (the service no longer knows it), its address refused, or the service failed (`status`). */
export type PushTestJson = { result: PushResult; status: number | null }

export type FocusJson = { focusedUntil: string | null }

/** While a tab is in front, the member counts as looking this long: the page renews it every 30 s. */
export const focusSeconds = 60

function deviceJson(row: Pick<PushSubscription, 'id' | 'endpoint' | 'userAgent' | 'createdAt' | 'lastSuccessAt'>): PushDeviceJson {
	return {
		id: row.id,
		endpoint: row.endpoint,
		...describeAgent(row.userAgent),
		createdAt: row.createdAt.toISOString(),
		lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
	}
}

const deviceColumns = ['id', 'endpoint', 'p256dh', 'auth', 'userAgent', 'createdAt', 'lastSuccessAt'] as const

export const deviceNotFound = () => new HttpError(404, 'notifications:push.errors.notFound')

const refusals = {
	scheme: 'notifications:push.errors.endpointScheme',
	private: 'notifications:push.errors.endpointPrivate',
	unresolved: 'notifications:push.errors.endpointUnresolved',
} as const

/** `/v1/user/push-subscriptions`: the signed-in user's devices that receive browser push. */
export function pushRouter({ db, config }: ApiContext): Router {
	const router = Router()
	router.use(requireUser(db))

	async function requireDevice(req: Request) {
		const { deviceId } = parseParams(req, deviceParams, deviceNotFound)
		const device = await db
			.selectFrom('pushSubscriptions')
			.select(deviceColumns)
			.where('id', '=', deviceId)
			.where('userId', '=', req.user.id)
			.executeTakeFirst()
		if (!device) throw deviceNotFound()
		return device
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const rows = await db.selectFrom('pushSubscriptions').select(deviceColumns).where('userId', '=', req.user.id).orderBy('createdAt', 'desc').execute()
			res.json({ publicKey: config.VAPID_PUBLIC_KEY, devices: rows.map(deviceJson) } satisfies PushDevicesJson)
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const body = parseRequest(req, 'body', subscribeBody)
			try {
				await checkOutboundUrl(body.endpoint, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
			} catch (error) {
				if (error instanceof OutboundAddressRefused) throw fieldError(req, 422, 'endpoint', refusals[error.reason])
				throw error
			}
			// One browser profile, one endpoint: subscribing again (new keys, or another user signed in there) takes it over.
			const row = await db
				.insertInto('pushSubscriptions')
				.values({
					userId: req.user.id,
					endpoint: body.endpoint,
					p256dh: body.keys.p256dh,
					auth: body.keys.auth,
					userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
				})
				.onConflict((conflict) =>
					conflict.column('endpoint').doUpdateSet((eb) => ({
						userId: eb.ref('excluded.userId'),
						p256dh: eb.ref('excluded.p256dh'),
						auth: eb.ref('excluded.auth'),
						userAgent: eb.ref('excluded.userAgent'),
						createdAt: sql<Date>`now()`,
						lastSuccessAt: null,
					})),
				)
				.returning(deviceColumns)
				.executeTakeFirstOrThrow()
			res.status(201).json(deviceJson(row))
		}),
	)

	router.delete(
		'/:deviceId',
		handler(async (req, res) => {
			const device = await requireDevice(req)
			await db.deleteFrom('pushSubscriptions').where('id', '=', device.id).where('userId', '=', req.user.id).execute()
			res.status(204).end()
		}),
	)

	router.post(
		'/:deviceId/test',
		handler(async (req, res) => {
			const device = await requireDevice(req)
			const { t } = req
			const delivery = await pushToDevice(
				db,
				config,
				device,
				{
					title: t('notifications:push.test.title'),
					body: t('notifications:push.test.body'),
					url: new URL(`/${req.locale}/dashboard/notifications/settings`, config.PUBLIC_URL).toString(),
					tag: 'push-test',
				},
				{ urgency: 'high', ttl: 60 },
			)
			res.json({ result: delivery.result, status: delivery.status } satisfies PushTestJson)
		}),
	)

	return router
}

/** `/v1/workspaces/:id/presence`: what the member's open tabs say of their attention. */
export function presenceRouter({ db }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	router.post(
		'/focus',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { focused } = parseRequest(req, 'body', focusBody)
			const row = await db
				.updateTable('members')
				.set({ focusedUntil: focused ? sql<Date>`now() + make_interval(secs => ${focusSeconds})` : null })
				.where('workspaceId', '=', workspace.id)
				.where('userId', '=', req.user.id)
				.returning('focusedUntil')
				.executeTakeFirst()
			res.json({ focusedUntil: row?.focusedUntil?.toISOString() ?? null } satisfies FocusJson)
		}),
	)

	return router
}
