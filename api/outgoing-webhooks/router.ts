import { Router, type Request } from 'express'
import { sql } from 'kysely'
import { webhookTestEvent } from '#common/webhooks.ts'
import { recordAudit } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { checkOutboundUrl, OutboundAddressRefused, type OutboundRefusal } from '#api/http/outbound-address.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { queueDeliveries } from './fan-out.ts'
import { newWebhookId, webhookBody } from './payloads.ts'
import { deliveriesPage, deliveryJson, findDelivery } from './queries.ts'
import { createWebhookBody, deliveryParams, listDeliveriesQuery, updateWebhookBody, webhookParams } from './schemas.ts'
import {
	createSubscription,
	findSubscription,
	hostOf,
	listSubscriptions,
	rollSubscriptionSecret,
	subscriptionJson,
	turnOnSubscription,
} from './subscriptions.ts'

/** A workspace's own webhooks, at most (an API channel's callback is not counted). */
export const subscriptionsPerWorkspace = 20

const webhookNotFound = () => new HttpError(404, 'webhooks:errors.notFound')
const deliveryNotFound = () => new HttpError(404, 'webhooks:errors.deliveryNotFound')
const refusals: Record<OutboundRefusal, string> = {
	scheme: 'webhooks:errors.urlScheme',
	private: 'webhooks:errors.urlPrivate',
	unresolved: 'webhooks:errors.urlUnresolved',
}

/** `/v1/workspaces/:id/webhooks`: the workspace's outgoing webhooks and their delivery logs, owners and admins alone. */
export function outgoingWebhooksRouter({ db, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	/** An address the server may post to, or a 422 beside the field saying why not. */
	async function requireReachable(req: Request, url: string) {
		try {
			await checkOutboundUrl(url, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
		} catch (error) {
			if (error instanceof OutboundAddressRefused) throw fieldError(req, 422, 'url', refusals[error.reason])
			throw error
		}
	}

	async function requireSubscription(req: Request) {
		const { workspace } = await requireMember(db, req, managers)
		const { subscriptionId } = parseParams(req, webhookParams, webhookNotFound)
		const subscription = await findSubscription(db, workspace.id, subscriptionId)
		if (!subscription) throw webhookNotFound()
		return { workspace, subscription }
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			res.json({ webhooks: await listSubscriptions(db, workspace.id) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createWebhookBody)
			await requireReachable(req, body.url)
			const created = await db.transaction().execute(async (trx) => {
				// One creation at a time per workspace, so two at once cannot pass the limit together.
				await sql`select pg_advisory_xact_lock(hashtext('webhooks:' || ${workspace.id}))`.execute(trx)
				const { count } = await trx
					.selectFrom('webhookSubscriptions')
					.select((eb) => eb.fn.countAll<number>().as('count'))
					.where('workspaceId', '=', workspace.id)
					.where('channelId', 'is', null)
					.executeTakeFirstOrThrow()
				if (Number(count) >= subscriptionsPerWorkspace) throw new HttpError(422, 'webhooks:errors.tooMany', { values: { count: subscriptionsPerWorkspace } })
				const made = await createSubscription(trx, {
					workspaceId: workspace.id,
					url: body.url,
					events: body.events,
					createdBy: req.user.id,
					encryptionKey: config.ENCRYPTION_KEY,
				})
				if (!body.enabled) await trx.updateTable('webhookSubscriptions').set({ enabled: false }).where('id', '=', made.subscription.id).execute()
				await recordAudit(trx, workspace.id, req.user, 'webhook.created', { host: hostOf(body.url), events: body.events.length })
				return { ...made, subscription: { ...made.subscription, enabled: body.enabled } }
			})
			res.status(201).json({ webhook: subscriptionJson(created.subscription), secret: created.secret })
		}),
	)

	router.get(
		'/:subscriptionId',
		handler(async (req, res) => {
			const { subscription } = await requireSubscription(req)
			res.json(subscriptionJson(subscription))
		}),
	)

	router.patch(
		'/:subscriptionId',
		handler(async (req, res) => {
			const { subscription } = await requireSubscription(req)
			const changes = parseRequest(req, 'body', updateWebhookBody)
			if (changes.url !== undefined && changes.url !== subscription.url) await requireReachable(req, changes.url)
			const turnedOn = changes.enabled === true && !subscription.enabled
			const updated = await db.transaction().execute(async (trx) => {
				const row = await trx
					.updateTable('webhookSubscriptions')
					.set({
						...(changes.url !== undefined ? { url: changes.url } : {}),
						...(changes.events !== undefined ? { events: changes.events } : {}),
						...(changes.enabled === false ? { enabled: false } : {}),
						updatedAt: sql<Date>`now()`,
					})
					.where('id', '=', subscription.id)
					.returningAll()
					.executeTakeFirst()
				const fields = (['url', 'events', 'enabled'] as const).filter((field) => changes[field] !== undefined)
				if (row && fields.length > 0) await recordAudit(trx, row.workspaceId, req.user, 'webhook.updated', { host: hostOf(row.url), fields: fields.join(', ') })
				return row && turnedOn ? turnOnSubscription(trx, row.id) : row
			})
			if (!updated) throw webhookNotFound()
			res.json(subscriptionJson(updated))
		}),
	)

	router.delete(
		'/:subscriptionId',
		handler(async (req, res) => {
			const { subscription } = await requireSubscription(req)
			await db.transaction().execute(async (trx) => {
				await trx.deleteFrom('webhookSubscriptions').where('id', '=', subscription.id).execute()
				await recordAudit(trx, subscription.workspaceId, req.user, 'webhook.deleted', { host: hostOf(subscription.url) })
			})
			res.status(204).end()
		}),
	)

	router.post(
		'/:subscriptionId/secret',
		handler(async (req, res) => {
			const { subscription } = await requireSubscription(req)
			const rolled = await db.transaction().execute(async (trx) => {
				const rolled = await rollSubscriptionSecret(trx, subscription.id, config.ENCRYPTION_KEY)
				if (rolled) await recordAudit(trx, subscription.workspaceId, req.user, 'webhook.secretRolled', { host: hostOf(subscription.url) })
				return rolled
			})
			if (!rolled) throw webhookNotFound()
			res.json({ secret: rolled.secret, previousSecretExpiresAt: rolled.previousUntil?.toISOString() ?? null })
		}),
	)

	router.get(
		'/:subscriptionId/deliveries',
		handler(async (req, res) => {
			const { subscription } = await requireSubscription(req)
			const { cursor } = parseRequest(req, 'query', listDeliveriesQuery)
			res.json(await deliveriesPage(db, subscription.id, cursor))
		}),
	)

	router.post(
		'/:subscriptionId/deliveries/:deliveryId/retry',
		handler(async (req, res) => {
			const { subscription } = await requireSubscription(req)
			const { deliveryId } = parseParams(req, deliveryParams, deliveryNotFound)
			const delivery = await findDelivery(db, subscription.id, deliveryId)
			if (!delivery) throw deliveryNotFound()
			if (!subscription.enabled) throw new HttpError(409, 'webhooks:errors.disabled')
			// The same webhook-id and body: a receiver that took it already can tell it is the same event.
			const again = await db.transaction().execute(async (trx) => {
				const row = await trx
					.updateTable('webhookDeliveries')
					.set({ status: 'pending', attempts: 0, nextAttemptAt: null, error: null, deliveredAt: null })
					.where('id', '=', delivery.id)
					.returningAll()
					.executeTakeFirstOrThrow()
				await queueDeliveries(trx, subscription.id, row.orderingKey, { now: true })
				return row
			})
			res.status(202).json(deliveryJson(again))
		}),
	)

	router.post(
		'/:subscriptionId/test',
		handler(async (req, res) => {
			const { workspace, subscription } = await requireSubscription(req)
			if (!subscription.enabled) throw new HttpError(409, 'webhooks:errors.disabled')
			const data = { workspaceId: workspace.id, webhook: { id: subscription.id, url: subscription.url } }
			const delivery = await db.transaction().execute(async (trx) => {
				const row = await trx
					.insertInto('webhookDeliveries')
					.values({
						workspaceId: workspace.id,
						subscriptionId: subscription.id,
						eventType: webhookTestEvent,
						webhookId: newWebhookId(),
						payload: webhookBody(webhookTestEvent, new Date(), data),
						// Its own queue: a test goes at once, whatever a conversation's deliveries wait for.
						orderingKey: subscription.id,
					})
					.returningAll()
					.executeTakeFirstOrThrow()
				await queueDeliveries(trx, subscription.id, subscription.id, { now: true })
				return row
			})
			res.status(202).json(deliveryJson(delivery))
		}),
	)
	return router
}
