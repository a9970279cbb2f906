import { providerChannel } from '#api/channels/connection.ts'
import { DeliveryError, providerFor, repliesByCallback } from '#api/channels/providers/index.ts'
import { type OutgoingMessage, ProviderError } from '#api/channels/providers/provider.ts'
import { fillTemplate } from '#api/channels/templates.ts'
import { messageEvent, publishEvents, type InboxEvent } from '#api/conversations/events.ts'
import { insertText, lastMessageOf, latestConversation } from '#api/conversations/inbound.ts'
import { type ExpressionBuilder, sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { whenDatabaseAnswers } from '#api/db/errors.ts'
import { type Campaign, type CampaignRecipient, type Channel, type Database } from '#api/db/schema.ts'
import { addJob, type JobConfig, removeJob } from '#api/jobs/queue.ts'
import { notifyCampaignEnded, notifyChannelDisconnected } from '#api/notifications/triggers.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { audienceQuery, rateOf, renderMessage } from './queries.ts'

/**
 * Sending a campaign, exactly once per recipient (docs/decisions/012-campaigns.md). A recipient is a
 * row, unique per campaign and contact. A batch claims its recipients (`queued` → `sending`, SKIP
 * LOCKED) and commits before any provider call; each send is recorded (`sent`, the provider's id)
 * in one transaction with its message. A recipient still `sending` after `claimLeaseMs` belongs to
 * a process that died: never written, it was never sent and goes back to the queue; written, its
 * outcome is unknown, so it is reconciled (its message has the provider's id: sent; otherwise failed
 * as "outcome unknown"), never sent a second time. A claim is its process's while `claimed_at` is
 * the stamp it took (to the millisecond): a process that finds it changed has lost it and sends nothing.
 */

/** Tries of a recipient whose provider is out of reach or busy, before it is failed. */
export const campaignSendAttempts = 5
/** How long a claimed recipient may stay `sending` before it is taken for a crash's (well over a provider call's 15 s timeout). */
export const claimLeaseMs = 60_000

/** A claim's stamp: to the millisecond, so that the `Date` a process keeps compares equal to the column. */
const claimStamp = sql<Date>`date_trunc('milliseconds', now())`

export const startJobKey = (campaignId: string) => `campaign-start:${campaignId}`
export const sendJobKey = (campaignId: string) => `campaign-send:${campaignId}`

export function announceCampaign(db: DB, realtime: Realtime, workspaceId: string, campaignId: string) {
	return publishWorkspaceEvent(db, realtime, workspaceId, 'campaign.updated', { campaignId })
}

/**
 * The campaign's next batch. Keyed, not in a named queue: a process stopped mid-job would keep a
 * named queue locked for hours (graphile-worker's lock timeout), and the recipients' claims already
 * keep two batches from sending to the same contact.
 */
export function scheduleBatch(trx: DB, campaignId: string, runAt?: Date) {
	return addJob(trx, 'send-campaign', { campaignId }, { key: sendJobKey(campaignId), runAt })
}

/** Schedules a campaign's start (its date is later) or starts it now; inside the caller's transaction. */
export async function launchCampaign(trx: DB, campaign: Campaign): Promise<Campaign> {
	if (campaign.scheduledAt && campaign.scheduledAt.getTime() > Date.now()) {
		await addJob(trx, 'start-campaign', { campaignId: campaign.id }, { key: startJobKey(campaign.id), runAt: campaign.scheduledAt })
		return trx
			.updateTable('campaigns')
			.set({ status: 'scheduled', updatedAt: sql<Date>`now()` })
			.where('id', '=', campaign.id)
			.returningAll()
			.executeTakeFirstOrThrow()
	}
	return freezeAndRun(trx, campaign)
}

/** Freezes the recipient list (the audience at this moment) and starts sending. */
async function freezeAndRun(trx: DB, campaign: Campaign): Promise<Campaign> {
	const audience = audienceQuery(trx, {
		workspaceId: campaign.workspaceId,
		channelId: campaign.channelId,
		labelsIn: campaign.labelsIn,
		labelsOut: campaign.labelsOut,
	})
		.select([sql<string>`${campaign.id}::uuid`.as('campaignId'), 'contacts.workspaceId', 'contacts.id as contactId', 'contactIdentities.id as identityId'])
		.distinctOn('contacts.id')
		.orderBy('contacts.id')
		.orderBy('contactIdentities.createdAt')
	const inserted = await trx
		.insertInto('campaignRecipients')
		.columns(['campaignId', 'workspaceId', 'contactId', 'identityId'])
		.expression(audience)
		.onConflict((oc) => oc.columns(['campaignId', 'contactId']).doNothing())
		.execute()
	const count = Number(inserted[0]?.numInsertedOrUpdatedRows ?? 0n)
	const started = await trx
		.updateTable('campaigns')
		.set({
			status: count === 0 ? 'completed' : 'running',
			recipientCount: count,
			startedAt: sql<Date>`now()`,
			finishedAt: count === 0 ? sql<Date>`now()` : null,
			updatedAt: sql<Date>`now()`,
		})
		.where('id', '=', campaign.id)
		.returningAll()
		.executeTakeFirstOrThrow()
	if (count > 0) await scheduleBatch(trx, campaign.id)
	return started
}

/** The `start-campaign` job: a scheduled campaign's time has come (unless it was cancelled or edited back to a draft). */
export async function startScheduledCampaign(db: DB, realtime: Realtime, campaignId: string) {
	const outcome = await db.transaction().execute(async (trx) => {
		const campaign = await trx.selectFrom('campaigns').selectAll().where('id', '=', campaignId).where('status', '=', 'scheduled').forUpdate().executeTakeFirst()
		if (!campaign) return undefined
		const started = await freezeAndRun(trx, campaign)
		// Nobody to reach at its time: it ends at once, with nobody watching it start, so its author is told.
		return { started, ended: started.status === 'completed' ? await notifyCampaignEnded(trx, campaignId) : [] }
	})
	if (!outcome) return
	void publishEvents(db, realtime, outcome.ended)
	await announceCampaign(db, realtime, outcome.started.workspaceId, outcome.started.id)
}

/** Pause, resume, cancel: what each does to the campaign and its pending jobs. */
export async function pauseCampaign(trx: DB, campaignId: string) {
	await removeJob(trx, sendJobKey(campaignId))
	return trx
		.updateTable('campaigns')
		.set({ status: 'paused', updatedAt: sql<Date>`now()` })
		.where('id', '=', campaignId)
		.where('status', '=', 'running')
		.returningAll()
		.executeTakeFirst()
}

export async function resumeCampaign(trx: DB, campaignId: string) {
	const resumed = await trx
		.updateTable('campaigns')
		.set({ status: 'running', statusDetail: null, updatedAt: sql<Date>`now()` })
		.where('id', '=', campaignId)
		.where('status', 'in', ['paused', 'failed'])
		.where('startedAt', 'is not', null)
		.returningAll()
		.executeTakeFirst()
	if (resumed) await scheduleBatch(trx, campaignId)
	return resumed
}

export async function cancelCampaign(trx: DB, campaignId: string) {
	await removeJob(trx, sendJobKey(campaignId))
	await removeJob(trx, startJobKey(campaignId))
	const cancelled = await trx
		.updateTable('campaigns')
		.set({ status: 'cancelled', finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
		.where('id', '=', campaignId)
		.where('status', 'in', ['draft', 'scheduled', 'running', 'paused', 'failed'])
		.returningAll()
		.executeTakeFirst()
	if (cancelled)
		await trx
			.updateTable('campaignRecipients')
			.set({ status: 'skipped', reason: 'campaigns:reasons.cancelled', updatedAt: sql<Date>`now()` })
			.where('campaignId', '=', campaignId)
			.where('status', '=', 'queued')
			.execute()
	return cancelled
}

/** What the provider is asked to send to one recipient, from the contact as it is now. */
async function messageFor(db: DB, campaign: Campaign, recipient: CampaignRecipient) {
	const contact = await db
		.selectFrom('contacts')
		.select(['name', 'company', 'email', 'phone', 'attributes', 'optedOutAt'])
		.where('id', '=', recipient.contactId)
		.executeTakeFirstOrThrow()
	if (contact.optedOutAt) return undefined
	if (!campaign.template) return { body: renderMessage(campaign.body, contact), template: undefined }
	const parameters = campaign.template.parameters.map((parameter) => renderMessage(parameter, contact))
	// The template's own text (kept as the campaign's body) with its numbered parameters: what the customer reads.
	const body = fillTemplate(campaign.body, parameters)
	return { body, template: { ...campaign.template, parameters } }
}

type Outcome = { done: true } | { done: false; retryAfterMs: number }

/** The claim this process took of `recipient` (still `sending`, still stamped as it stamped it). */
const heldClaim = (recipient: Pick<CampaignRecipient, 'id' | 'claimedAt'>) => (eb: ExpressionBuilder<Database, 'campaignRecipients'>) =>
	eb.and([
		eb('campaignRecipients.id', '=', recipient.id),
		eb('campaignRecipients.status', '=', 'sending'),
		eb('campaignRecipients.claimedAt', '=', recipient.claimedAt),
	])

/**
 * One recipient, claimed: its message is written into the contact's conversation (pending) and
 * committed, sent, then recorded with the provider's id, the recipient `sent` in the same
 * transaction. A retryable provider error puts the recipient back in the queue (up to
 * `campaignSendAttempts` tries); any other refusal fails it with the provider's words.
 */
async function sendToRecipient(
	db: DB,
	realtime: Realtime,
	config: JobConfig,
	campaign: Campaign,
	channel: Channel,
	recipient: CampaignRecipient,
): Promise<Outcome> {
	const outgoing = await messageFor(db, campaign, recipient)
	// Opted out since the campaign started: their word stands over the frozen list.
	if (!outgoing) {
		await db
			.updateTable('campaignRecipients')
			.set({ status: 'skipped', reason: 'campaigns:reasons.optedOut', updatedAt: sql<Date>`now()` })
			.where(heldClaim(recipient))
			.execute()
		return { done: true }
	}
	let claim: Pick<CampaignRecipient, 'id' | 'claimedAt'> = recipient
	const identity = recipient.identityId
		? await db.selectFrom('contactIdentities').selectAll().where('id', '=', recipient.identityId).executeTakeFirst()
		: undefined
	const written = await db.transaction().execute(async (trx) => {
		// Still ours? (A process slower than the lease may have had it reconciled and claimed by another.)
		// Stamped again, so that the lease now runs from this write: only the provider's call is left in it.
		const held = await trx
			.updateTable('campaignRecipients')
			.set({ claimedAt: claimStamp })
			.where(heldClaim(recipient))
			.returning(['id', 'claimedAt'])
			.executeTakeFirst()
		if (!held) return 'lost' as const
		claim = held
		if (!identity) return undefined
		if (recipient.messageId) {
			const message = await trx.selectFrom('messages').selectAll().where('id', '=', recipient.messageId).executeTakeFirstOrThrow()
			const conversation = await trx.selectFrom('conversations').selectAll().where('id', '=', message.conversationId).executeTakeFirstOrThrow()
			return { message, conversation, created: false }
		}
		const { conversation: found, created } = await latestConversation(trx, channel, identity)
		const message = await insertText(trx, found, { direction: 'outgoing', body: outgoing.body, externalId: null, status: 'pending' })
		if (outgoing.template) await trx.updateTable('messages').set({ template: outgoing.template }).where('id', '=', message.id).execute()
		const conversation = await trx.updateTable('conversations').set(lastMessageOf(message)).where('id', '=', found.id).returningAll().executeTakeFirstOrThrow()
		await trx.updateTable('campaignRecipients').set({ conversationId: conversation.id, messageId: message.id }).where('id', '=', recipient.id).execute()
		return { message, conversation, created }
	})
	if (written === 'lost') return { done: true }

	let result: { externalId: string | null } | { error: string; retryAfterMs?: number; unauthorized?: boolean }
	const provider = providerFor(channel.kind)
	// An API channel's message is handed to its callback's webhook delivery, which sets the message's status.
	const byCallback = repliesByCallback(channel.kind)
	try {
		if (!written || !identity) throw new DeliveryError('The contact has no identity on this channel.')
		if (byCallback) result = { externalId: null }
		else {
			if (!provider) throw new DeliveryError(`Sending on ${channel.kind} channels is not available yet.`)
			const message: OutgoingMessage = { to: identity.externalId, body: outgoing.body, template: outgoing.template }
			const sent = await provider.send(providerChannel(channel, config.ENCRYPTION_KEY), message, config)
			result = { externalId: sent.externalId }
		}
	} catch (error) {
		if (!(error instanceof DeliveryError) && !(error instanceof ProviderError)) throw error
		const retryable = error instanceof ProviderError && error.retryable && recipient.attempts + 1 < campaignSendAttempts
		result = {
			error: error.message,
			retryAfterMs: retryable ? ((error as ProviderError).options.retryAfterMs ?? 2 ** (recipient.attempts + 1) * 1000) : undefined,
			unauthorized: error instanceof ProviderError && error.kind === 'unauthorized',
		}
	}

	const now = sql<Date>`now()`
	// Once the provider was asked, its answer is written whenever the database answers: a lost write would send again.
	const ended = await whenDatabaseAnswers(() =>
		db.transaction().execute(async (trx): Promise<InboxEvent[]> => {
			if ('externalId' in result) {
				if (!byCallback)
					await trx
						.updateTable('messages')
						.set({ status: 'sent', externalId: result.externalId, updatedAt: now })
						.where('id', '=', written!.message.id)
						.where('status', '=', 'pending')
						.execute()
				await trx.updateTable('campaignRecipients').set({ status: 'sent', sentAt: now, reason: null, updatedAt: now }).where(heldClaim(claim)).execute()
				return []
			}
			if (result.retryAfterMs !== undefined) {
				await trx
					.updateTable('campaignRecipients')
					.set({ status: 'queued', claimedAt: null, attempts: recipient.attempts + 1, reason: result.error, updatedAt: now })
					.where(heldClaim(claim))
					.execute()
				return []
			}
			if (written)
				await trx
					.updateTable('messages')
					.set({ status: 'failed', error: result.error, updatedAt: now })
					.where('id', '=', written.message.id)
					.where('status', '=', 'pending')
					.execute()
			await trx.updateTable('campaignRecipients').set({ status: 'failed', reason: result.error, updatedAt: now }).where(heldClaim(claim)).execute()
			if (result.unauthorized) {
				await trx
					.updateTable('channels')
					.set({ status: 'error', statusDetail: result.error, failingSince: sql<Date>`coalesce(failing_since, now())`, updatedAt: now })
					.where('id', '=', channel.id)
					.execute()
				await trx
					.updateTable('campaigns')
					.set({ status: 'failed', statusDetail: result.error, updatedAt: now })
					.where('id', '=', campaign.id)
					.where('status', '=', 'running')
					.execute()
				return [...(await notifyChannelDisconnected(trx, channel.id)), ...(await notifyCampaignEnded(trx, campaign.id))]
			}
			return []
		}),
	)
	void publishEvents(db, realtime, ended)
	if (written) {
		const { conversation } = written
		void publishEvents(db, realtime, [messageEvent(written.created ? 'message.created' : 'message.updated', conversation, written.message)])
	}
	return result && 'retryAfterMs' in result && result.retryAfterMs !== undefined ? { done: false, retryAfterMs: result.retryAfterMs } : { done: true }
}

/**
 * Recipients left `sending` by a process that stopped: back to the queue when it never wrote their
 * message (the send comes only after that write is committed), sent when their message has the
 * provider's id, otherwise failed as unknown.
 */
async function reconcile(db: DB, campaignId: string) {
	const stale = sql<boolean>`claimed_at < now() - ${`${claimLeaseMs} milliseconds`}::interval`
	await db
		.updateTable('campaignRecipients')
		.set({ status: 'queued', claimedAt: null, updatedAt: sql<Date>`now()` })
		.where('campaignId', '=', campaignId)
		.where('status', '=', 'sending')
		.where('messageId', 'is', null)
		.where(stale)
		.execute()
	await db
		.updateTable('campaignRecipients')
		.set({ status: 'sent', sentAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
		.where('campaignId', '=', campaignId)
		.where('status', '=', 'sending')
		.where(stale)
		.where(({ exists, selectFrom }) =>
			exists(
				selectFrom('messages').select('messages.id').whereRef('messages.id', '=', 'campaignRecipients.messageId').where('messages.externalId', 'is not', null),
			),
		)
		.execute()
	await db
		.updateTable('campaignRecipients')
		.set({ status: 'failed', reason: 'campaigns:reasons.outcomeUnknown', updatedAt: sql<Date>`now()` })
		.where('campaignId', '=', campaignId)
		.where('status', '=', 'sending')
		.where(stale)
		.execute()
}

/**
 * The `send-campaign` job: one second's worth of recipients at the channel's rate (shared with the
 * channel's other running campaigns), then the next
 * batch a second after this one began (or after the provider's wait); the campaign completes when
 * no recipient is left queued or sending. A campaign no longer running (paused, cancelled) stops here.
 */
export async function sendCampaignBatch(db: DB, realtime: Realtime, config: JobConfig, campaignId: string) {
	const began = Date.now()
	const campaign = await db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).executeTakeFirst()
	if (!campaign || campaign.status !== 'running') return
	const channel = await db.selectFrom('channels').selectAll().where('id', '=', campaign.channelId).executeTakeFirstOrThrow()
	if (!channel.enabled) {
		const ended = await db.transaction().execute(async (trx) => {
			await trx
				.updateTable('campaigns')
				.set({ status: 'failed', statusDetail: 'campaigns:reasons.channelDisabled', updatedAt: sql<Date>`now()` })
				.where('id', '=', campaignId)
				.where('status', '=', 'running')
				.execute()
			return notifyCampaignEnded(trx, campaignId)
		})
		void publishEvents(db, realtime, ended)
		await announceCampaign(db, realtime, campaign.workspaceId, campaignId)
		return
	}
	await reconcile(db, campaignId)

	// The channel's rate is shared: what other campaigns on it claimed in the last second is taken off this batch.
	const rate = rateOf(campaign, channel)
	const claimed = await db.transaction().execute(async (trx) => {
		// One batch of the channel at a time counts and claims, so two campaigns cannot both take the same second.
		await sql`select pg_advisory_xact_lock(hashtext(${`campaign-rate:${channel.id}`}))`.execute(trx)
		const { recent } = await trx
			.selectFrom('campaignRecipients')
			.innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
			.select(sql<number>`count(*)::int`.as('recent'))
			.where('campaigns.channelId', '=', channel.id)
			// Running, or stopped a moment ago (completed, paused) with its last claims still within the second.
			.where((eb) => eb.or([eb('campaigns.status', '=', 'running'), eb('campaigns.updatedAt', '>', sql<Date>`now() - interval '2 seconds'`)]))
			.where('campaigns.id', '!=', campaignId)
			.where('campaignRecipients.claimedAt', '>', sql<Date>`now() - interval '1 second'`)
			.executeTakeFirstOrThrow()
		const budget = Math.max(0, rate - recent)
		if (budget === 0) return []
		// The batch is picked once, in a materialised CTE: as `id in (… limit … skip locked)`, a nested loop
		// could run the pick again for each row it joined, each time past the rows this statement had just
		// claimed, and claim the whole campaign in one batch (a test forces that plan).
		return trx
			.with(
				(cte) => cte('picked').materialized(),
				(query) =>
					query
						.selectFrom('campaignRecipients')
						.select('id')
						.where('campaignId', '=', campaignId)
						.where('status', '=', 'queued')
						.orderBy('id')
						.limit(budget)
						.forUpdate()
						.skipLocked(),
			)
			.updateTable('campaignRecipients')
			.set({ status: 'sending', claimedAt: claimStamp, updatedAt: sql<Date>`now()` })
			.where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
			.where('status', '=', 'queued')
			.returningAll()
			.execute()
	})
	claimed.sort((a, b) => Number(a.id) - Number(b.id))

	let waitMs = 1000
	for (const [index, recipient] of claimed.entries()) {
		const outcome = await sendToRecipient(db, realtime, config, campaign, channel, recipient)
		if (!outcome.done) {
			// The provider asks us to slow down: the rest of this batch goes back to the queue, untouched.
			const rest = claimed.slice(index + 1).map((other) => other.id)
			if (rest.length > 0)
				await db
					.updateTable('campaignRecipients')
					.set({ status: 'queued', claimedAt: null })
					.where('id', 'in', rest)
					.where('status', '=', 'sending')
					.where('claimedAt', '=', recipient.claimedAt)
					.execute()
			waitMs = Math.max(waitMs, outcome.retryAfterMs)
			break
		}
		const now = await db.selectFrom('campaigns').select('status').where('id', '=', campaignId).executeTakeFirst()
		if (now?.status !== 'running') {
			// Paused or cancelled mid-batch: what was claimed and not sent waits in the queue (or is skipped).
			const rest = claimed.slice(index + 1).map((other) => other.id)
			if (rest.length > 0)
				await db
					.updateTable('campaignRecipients')
					.set(
						now?.status === 'cancelled' ? { status: 'skipped', reason: 'campaigns:reasons.cancelled', claimedAt: null } : { status: 'queued', claimedAt: null },
					)
					.where('id', 'in', rest)
					.where('status', '=', 'sending')
					// Claimed with this one, in one statement: the same stamp while still ours.
					.where('claimedAt', '=', recipient.claimedAt)
					.execute()
			await announceCampaign(db, realtime, campaign.workspaceId, campaignId)
			return
		}
	}

	const left = await db
		.selectFrom('campaignRecipients')
		.select(['status', sql<Date>`min(claimed_at)`.as('oldestClaim')])
		.where('campaignId', '=', campaignId)
		.where('status', 'in', ['queued', 'sending'])
		.groupBy('status')
		.execute()
	const queued = left.some((row) => row.status === 'queued')
	const sending = left.find((row) => row.status === 'sending')
	if (!queued && !sending) {
		const ended = await db.transaction().execute(async (trx) => {
			const completed = await trx
				.updateTable('campaigns')
				.set({ status: 'completed', finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
				.where('id', '=', campaignId)
				.where('status', '=', 'running')
				.executeTakeFirst()
			return completed.numUpdatedRows > 0n ? notifyCampaignEnded(trx, campaignId) : []
		})
		void publishEvents(db, realtime, ended)
	} else {
		// Only another process's sends in flight: come back when their lease ends, to reconcile what it left.
		const runAt = queued ? new Date(began + waitMs) : new Date(new Date(sending!.oldestClaim).getTime() + claimLeaseMs + 1000)
		await scheduleBatch(db, campaignId, runAt)
	}
	await announceCampaign(db, realtime, campaign.workspaceId, campaignId)
}
