import crypto from 'node:crypto'
import { Router, type Request } from 'express'
import { recordAudit } from '#api/audit/record.ts'
import { autoRepliesOf, type AutoReplies } from '#common/auto-replies.ts'
import { type BusinessHours } from '#common/business-hours.ts'
import { type ApiContext } from '#api/context.ts'
import { isForeignKeyViolation, isUniqueViolation } from '#api/db/errors.ts'
import { type DB } from '#api/db/database.ts'
import { type ChannelKind } from '#api/db/schema.ts'
import { createSubscription, hostOf, rollSubscriptionSecret, setSubscriptionUrl } from '#api/outgoing-webhooks/subscriptions.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { checkOutboundUrl, OutboundAddressRefused, type OutboundRefusal } from '#api/http/outbound-address.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import {
	channelJson,
	channelSlugConstraint,
	findChannel,
	isSlugReserved,
	linkSettingsOf,
	listChannels,
	publicChannelColumns,
	type PublicChannel,
	slugReservedDays,
	suggestSlug,
} from './queries.ts'
import { sealCredentials } from './crypto.ts'
import { describeFailure, newWebhookSecret, providerChannel, webhookUrl } from './connection.ts'
import { providerFor } from './providers/index.ts'
import { type ChannelProvider, ProviderError } from './providers/provider.ts'
import {
	channelKindBody,
	channelParams,
	createApiChannelBody,
	createLinkChannelBody,
	createPageChannelBody,
	createTelegramChannelBody,
	createWhatsAppChannelBody,
	credentialsOf,
	defaultLinkSettings,
	type LinkSettings,
	replaceCredentialsBody,
	updateApiChannelBody,
	updateLinkChannelBody,
	updateMessagingChannelBody,
} from './schemas.ts'

function channelNotFound() {
	return new HttpError(404, 'channels:errors.notFound')
}

/** The 409 of a slug another channel (of any workspace: the link page names none) already has, shown beside the field. */
function slugTaken(req: Request, slug: string) {
	return fieldError(req, 409, 'slug', 'channels:errors.slugTaken', { slug })
}

/** The 409 of a slug another workspace's deleted link had, still reserved to it, shown beside the field. */
function slugReserved(req: Request, slug: string) {
	return fieldError(req, 409, 'slug', 'channels:errors.slugReserved', { slug, days: slugReservedDays, count: slugReservedDays })
}

/** The 422 of a team the workspace does not have (or no longer has), shown beside the field. */
function teamUnknown(req: Request) {
	return fieldError(req, 422, 'teamId', 'channels:errors.teamUnknown')
}

const channelTeamConstraint = 'channels_team_fk'

/** What an API channel's callback is told of: the team's replies (never notes nor activity lines), and its conversations' status and assignee. */
const apiChannelEvents = ['message.created', 'conversation.status_changed', 'conversation.assigned'] as const

const callbackRefusals: Record<OutboundRefusal, string> = {
	scheme: 'channels:api.errors.callbackScheme',
	private: 'channels:api.errors.callbackPrivate',
	unresolved: 'channels:api.errors.callbackUnresolved',
}

// A disabled link answers 404 to its visitors; the list shows why.
const statusOf = (enabled: boolean) => (enabled ? 'active' : 'disabled')

/** `/v1/workspaces/:id/channels`: everyone reads (the inbox filters by channel), owners and admins write. */
export function channelsRouter({ db, config, logger }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	const taken = (req: Request, slug: string | undefined) => (error: unknown) => {
		if (isForeignKeyViolation(error, channelTeamConstraint)) throw teamUnknown(req)
		throw slug !== undefined && isUniqueViolation(error, channelSlugConstraint) ? slugTaken(req, slug) : error
	}
	// A team of another workspace is refused here; one deleted meanwhile, by its key (channelTeamConstraint).
	const requireTeam = async (req: Request, workspaceId: string, teamId: string | null | undefined) => {
		if (!teamId) return
		const team = await db.selectFrom('teams').select('id').where('workspaceId', '=', workspaceId).where('id', '=', teamId).executeTakeFirst()
		if (!team) throw teamUnknown(req)
	}
	// A deleted link's address is not another workspace's at once: its visitors would reach their page.
	const refuseReserved = async (req: Request, slug: string | undefined, workspaceId: string) => {
		if (slug !== undefined && (await isSlugReserved(db, slug, workspaceId))) throw slugReserved(req, slug)
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json({ channels: await listChannels(db, workspace.id) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { kind } = parseRequest(req, 'body', channelKindBody)
			if (kind === 'api') {
				res.status(201).json(await createApiChannel(req, workspace.id))
				return
			}
			if (kind !== 'link') {
				const { created, credentials } = await connectMessaging(req, workspace.id, kind)
				await recordAudit(db, workspace.id, req.user, 'channel.created', { channel: created.name, channelId: created.id, channelKind: kind })
				res.status(201).json({ ...channelJson(created), webhook: webhookOf(created, credentials) })
				return
			}
			const body = parseRequest(req, 'body', createLinkChannelBody)
			await requireTeam(req, workspace.id, body.teamId)
			const enabled = body.enabled ?? true
			const values = {
				workspaceId: workspace.id,
				kind,
				name: body.name,
				teamId: body.teamId ?? null,
				enabled,
				status: statusOf(enabled),
				settings: { ...defaultLinkSettings, ...body.settings },
			} as const
			const insert = (slug: string) =>
				db
					.insertInto('channels')
					.values({ ...values, slug })
					.returning(publicChannelColumns)
					.executeTakeFirstOrThrow()
			let created
			if (body.slug) {
				await refuseReserved(req, body.slug, workspace.id)
				created = await insert(body.slug).catch(taken(req, body.slug))
			} else {
				// Two channels of the same name at once: the second takes a random suffix rather than a 409 for a slug nobody typed.
				const suggested = await suggestSlug(db, body.name, workspace.id)
				created = await insert(suggested).catch(async (error: unknown) => {
					if (!isUniqueViolation(error, channelSlugConstraint)) return taken(req, undefined)(error)
					return insert(`${suggested}-${Date.now().toString(36)}`).catch(taken(req, undefined))
				})
			}
			// After the insert, which may be tried twice (a slug taken meanwhile): a failed statement would end a transaction.
			await recordAudit(db, workspace.id, req.user, 'channel.created', { channel: created.name, channelId: created.id, channelKind: kind })
			res.status(201).json(channelJson(created))
		}),
	)

	router.get(
		'/:channelId',
		handler(async (req, res) => {
			const membership = await requireMember(db, req)
			const { workspace } = membership
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await channelWithSecrets(workspace.id, channelId)
			if (!found) throw channelNotFound()
			// Owners and admins see where to point the provider and the credentials' last characters; nobody sees the credentials themselves.
			const manages = managers.includes(membership.role)
			if (found.kind === 'api') return res.json({ ...channelJson(found), webhook: null, callback: manages ? await callbackOf(found.id) : null })
			if (found.kind === 'link') return res.json({ ...channelJson(found), webhook: null })
			const credentials = manages ? providerChannel(found, config.ENCRYPTION_KEY).credentials : null
			res.json({ ...channelJson(found), webhook: credentials && webhookOf(found, credentials), maskedCredentials: credentials && maskCredentials(credentials) })
		}),
	)

	/** The provider's approved message templates (WhatsApp), for replies outside its window and for campaigns. */
	router.get(
		'/:channelId/templates',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await channelWithSecrets(workspace.id, channelId)
			if (!found) throw channelNotFound()
			const provider = providerFor(found.kind)
			if (!provider?.listTemplates) throw new HttpError(422, 'inbox:errors.templatesNotAvailable')
			const templates = await provider.listTemplates(providerChannel(found, config.ENCRYPTION_KEY), config).catch((error: unknown) => {
				if (!(error instanceof ProviderError)) throw error
				const { key, values } = describeFailure(provider, error)
				throw new HttpError(502, `channels:${key}`, { values })
			})
			res.json({ templates })
		}),
	)

	router.patch(
		'/:channelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await findChannel(db, workspace.id, channelId)
			if (!found) throw channelNotFound()
			// A messaging channel's settings are learnt from its provider: only its name, switch and campaign rate change here.
			const changes: {
				name?: string
				slug?: string
				enabled?: boolean
				settings?: Partial<LinkSettings>
				campaignRatePerSecond?: number | null
				teamId?: string | null
				csatEnabled?: boolean
				businessHours?: BusinessHours | null
				autoReplies?: Partial<AutoReplies>
			} =
				found.kind === 'link'
					? parseRequest(req, 'body', updateLinkChannelBody)
					: found.kind === 'api'
						? parseRequest(req, 'body', updateApiChannelBody)
						: parseRequest(req, 'body', updateMessagingChannelBody)
			const { settings, autoReplies, ...columns } = changes
			const callbackUrl = found.kind === 'api' ? (settings as { callbackUrl?: string } | undefined)?.callbackUrl : undefined
			if (callbackUrl !== undefined) await requireCallback(req, callbackUrl)
			if (changes.slug !== found.slug) await refuseReserved(req, changes.slug, workspace.id)
			await requireTeam(req, workspace.id, changes.teamId)
			const updated = await db
				.transaction()
				.execute(async (trx) => {
					const row = await trx
						.updateTable('channels')
						.set({
							...columns,
							...(changes.enabled === undefined ? {} : { status: statusOf(changes.enabled), statusDetail: null, failingSince: null }),
							...(settings ? { settings: found.kind === 'api' ? { ...found.settings, ...settings } : { ...linkSettingsOf(found), ...settings } } : {}),
							...(autoReplies ? { autoReplies: { ...autoRepliesOf(found.autoReplies), ...autoReplies } } : {}),
							updatedAt: new Date(),
						})
						.where('workspaceId', '=', workspace.id)
						.where('id', '=', channelId)
						.returning(publicChannelColumns)
						.executeTakeFirst()
					if (row && callbackUrl !== undefined) await moveCallback(trx, row.id, callbackUrl)
					// Which fields changed, never what they became.
					const fields = Object.entries(changes).flatMap(([field, value]) => (value === undefined ? [] : [field]))
					if (row && fields.length > 0)
						await recordAudit(trx, workspace.id, req.user, 'channel.updated', { channel: row.name, channelId: row.id, fields: fields.join(',') })
					return row
				})
				.catch(taken(req, changes.slug))
			if (!updated) throw channelNotFound()
			res.json(channelJson(updated))
		}),
	)

	/**
	 * Replaces some of a messaging channel's credentials (a renewed token, a rotated app secret):
	 * checked with the provider as on connect, the provider pointed at us again with the new ones
	 * (Telegram's setWebhook, after the old bot's webhook is released), and the channel working again.
	 */
	router.put(
		'/:channelId/credentials',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await channelWithSecrets(workspace.id, channelId)
			if (!found) throw channelNotFound()
			if (!(found.kind in credentialsOf)) throw new HttpError(422, 'channels:errors.noCredentials')
			const kind = found.kind as keyof typeof credentialsOf
			const { credentials: given } = parseRequest(req, 'body', replaceCredentialsBody(kind))
			const provider = providerFor(kind)!
			const current = providerChannel(found, config.ENCRYPTION_KEY)
			const credentials: Record<string, string> = { ...current.credentials }
			for (const [name, value] of Object.entries(given)) if (value) credentials[name] = value
			const replaced = { ...current, credentials }
			const refused = refusal(req, provider, credentialsOf[kind].refusedField)
			const learnt = await provider.validateCredentials!(replaced, config).catch(refused)
			if (provider.disconnect && provider.connect) {
				await provider
					.disconnect(current, config)
					.catch((error: unknown) => logger.warn({ err: error, channelId }, 'the provider did not release the old credentials'))
				await provider.connect(replaced, webhookUrl(config, found), config).catch(refused)
			}
			const updated = await db.transaction().execute(async (trx) => {
				const row = await trx
					.updateTable('channels')
					.set({
						credentials: sealCredentials(credentials, config.ENCRYPTION_KEY),
						settings: { ...found.settings, ...learnt },
						status: statusOf(found.enabled),
						statusDetail: null,
						failingSince: null,
						updatedAt: new Date(),
					})
					.where('workspaceId', '=', workspace.id)
					.where('id', '=', channelId)
					.returning(publicChannelColumns)
					.executeTakeFirst()
				// The names of the credentials replaced; their values stay sealed in the channel.
				const fields = Object.entries(given).flatMap(([name, value]) => (value ? [name] : []))
				if (row)
					await recordAudit(trx, workspace.id, req.user, 'channel.credentialsReplaced', { channel: row.name, channelId: row.id, fields: fields.join(',') })
				return row
			})
			if (!updated) throw channelNotFound()
			res.json({ ...channelJson(updated), webhook: webhookOf(updated, credentials), maskedCredentials: maskCredentials(credentials) })
		}),
	)

	/** A new secret for an API channel's callback, shown once; the one it replaces keeps signing beside it for a day, as a webhook's. */
	router.post(
		'/:channelId/callback-secret',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await findChannel(db, workspace.id, channelId)
			if (found?.kind !== 'api') throw channelNotFound()
			const subscription = await db
				.selectFrom('webhookSubscriptions')
				.select(['id', 'url'])
				.where('workspaceId', '=', workspace.id)
				.where('channelId', '=', found.id)
				.executeTakeFirst()
			const rolled = await db.transaction().execute(async (trx) => {
				const rolled = subscription && (await rollSubscriptionSecret(trx, subscription.id, config.ENCRYPTION_KEY))
				if (rolled) await recordAudit(trx, workspace.id, req.user, 'webhook.secretRolled', { host: hostOf(subscription.url) })
				return rolled
			})
			if (!rolled) throw channelNotFound()
			res.json({ secret: rolled.secret, previousSecretExpiresAt: rolled.previousUntil?.toISOString() ?? null })
		}),
	)

	router.delete(
		'/:channelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await channelWithSecrets(workspace.id, channelId)
			const provider = found && providerFor(found.kind)
			// The provider stops sending us its events first; failing that (a revoked token) must not keep the channel.
			if (found && provider?.disconnect) {
				await provider.disconnect(providerChannel(found, config.ENCRYPTION_KEY), config).catch((error: unknown) => {
					logger.warn({ err: error, channelId }, 'the provider did not disconnect the channel')
				})
			}
			const deleted = await db.transaction().execute(async (trx) => {
				const row = await trx
					.deleteFrom('channels')
					.where('workspaceId', '=', workspace.id)
					.where('id', '=', channelId)
					.returning(['id', 'name', 'kind'])
					.executeTakeFirst()
				if (row) await recordAudit(trx, workspace.id, req.user, 'channel.deleted', { channel: row.name, channelId: row.id, channelKind: row.kind })
				return row
			})
			if (!deleted) throw channelNotFound()
			res.status(204).end()
		}),
	)

	/**
	 * A messaging channel: its credentials are checked with the provider itself (Telegram's getMe,
	 * WhatsApp's phone number, Meta's page) before anything is kept, encrypted; then the provider is pointed at
	 * our webhook where it can be (Telegram's setWebhook; Meta's is pasted in its dashboard). A
	 * refusal is said beside the credential; the provider out of reach is a 502.
	 */
	async function connectMessaging(req: Request, workspaceId: string, kind: Exclude<ChannelKind, 'link' | 'api'>) {
		const body =
			kind === 'telegram'
				? parseRequest(req, 'body', createTelegramChannelBody)
				: kind === 'whatsapp'
					? parseRequest(req, 'body', createWhatsAppChannelBody)
					: parseRequest(req, 'body', createPageChannelBody)
		await requireTeam(req, workspaceId, body.teamId)
		const credentials: Record<string, string> = { ...body.credentials }
		// Meta's verify token is pasted into its dashboard: made here when the manager left it empty.
		if (kind !== 'telegram' && !credentials.verifyToken) credentials.verifyToken = newWebhookSecret()
		const provider = providerFor(kind)!
		const settings = 'settings' in body ? body.settings : {}
		const draft = { id: crypto.randomUUID(), workspaceId, kind, settings, credentials, webhookSecret: newWebhookSecret() }
		const refused = refusal(req, provider, credentialsOf[kind].refusedField)
		const learnt = await provider.validateCredentials!(draft, config).catch(refused)
		const enabled = body.enabled ?? true
		const created = await db
			.insertInto('channels')
			.values({
				id: draft.id,
				workspaceId,
				kind,
				name: body.name,
				teamId: body.teamId ?? null,
				enabled,
				status: statusOf(enabled),
				settings: { ...settings, ...learnt },
				credentials: sealCredentials(credentials, config.ENCRYPTION_KEY),
				webhookSecret: draft.webhookSecret,
			})
			.returning(publicChannelColumns)
			.executeTakeFirstOrThrow()
			.catch(taken(req, undefined))
		try {
			await provider.connect?.(draft, webhookUrl(config, created), config)
		} catch (error) {
			await db.deleteFrom('channels').where('id', '=', created.id).execute()
			refused(error)
		}
		return { created, credentials }
	}

	/** The 422 of a callback URL that may not be reached (not https, a private address, a host that does not resolve), beside the field. */
	async function requireCallback(req: Request, url: string) {
		await checkOutboundUrl(url, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE }).catch((error: unknown) => {
			if (error instanceof OutboundAddressRefused) throw fieldError(req, 422, 'settings.callbackUrl', callbackRefusals[error.reason])
			throw error
		})
	}

	/**
	 * An API channel (issue 33): no provider to ask, only the callback URL its replies are posted to,
	 * checked as every address the server connects to.
	 */
	async function createApiChannel(req: Request, workspaceId: string) {
		const body = parseRequest(req, 'body', createApiChannelBody)
		await requireTeam(req, workspaceId, body.teamId)
		await requireCallback(req, body.settings.callbackUrl)
		const enabled = body.enabled ?? true
		const created = await db
			.transaction()
			.execute(async (trx) => {
				const row = await trx
					.insertInto('channels')
					.values({
						workspaceId,
						kind: 'api',
						name: body.name,
						teamId: body.teamId ?? null,
						enabled,
						status: statusOf(enabled),
						settings: { callbackUrl: body.settings.callbackUrl },
					})
					.returning(publicChannelColumns)
					.executeTakeFirstOrThrow()
				// Its replies go out as the webhooks of a subscription of its own, made with it: its secret signs them.
				const { secret } = await createSubscription(trx, {
					workspaceId,
					channelId: row.id,
					url: body.settings.callbackUrl,
					events: apiChannelEvents,
					createdBy: req.user.id,
					encryptionKey: config.ENCRYPTION_KEY,
				})
				await recordAudit(trx, workspaceId, req.user, 'channel.created', { channel: row.name, channelId: row.id, channelKind: 'api' })
				return { row, secret }
			})
			.catch(taken(req, undefined))
		return { ...channelJson(created.row), secret: created.secret }
	}

	/**
	 * Points an API channel's subscription at its new callback URL; saving it also turns the
	 * subscription back on after it was switched off for failing a day (its page is the only place to).
	 */
	async function moveCallback(trx: DB, channelId: string, url: string) {
		const subscription = await trx.selectFrom('webhookSubscriptions').select('id').where('channelId', '=', channelId).executeTakeFirst()
		if (!subscription) return
		await setSubscriptionUrl(trx, subscription.id, url)
		await trx.updateTable('webhookSubscriptions').set({ enabled: true, failingSince: null, disabledAt: null }).where('id', '=', subscription.id).execute()
	}

	/** How an API channel's callback deliveries go: failing since when, switched off after a day of failures. */
	async function callbackOf(channelId: string) {
		const subscription = await db
			.selectFrom('webhookSubscriptions')
			.select(['url', 'enabled', 'failingSince', 'disabledAt'])
			.where('channelId', '=', channelId)
			.executeTakeFirst()
		if (!subscription) return null
		return {
			url: subscription.url,
			enabled: subscription.enabled,
			failingSince: subscription.failingSince?.toISOString() ?? null,
			disabledAt: subscription.disabledAt?.toISOString() ?? null,
		}
	}

	/** A channel of the workspace with its (still sealed) credentials and webhook secret: for the provider's calls, never for an answer. */
	function channelWithSecrets(workspaceId: string, channelId: string) {
		return db.selectFrom('channels').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', channelId).executeTakeFirst()
	}

	/** A provider's refusal of credentials, said beside `field`; the provider out of reach is a 502. */
	function refusal(req: Request, provider: ChannelProvider, field: string) {
		return (error: unknown): never => {
			if (!(error instanceof ProviderError)) throw error
			const { key, values } = describeFailure(provider, error)
			if (error.kind === 'unavailable' || error.kind === 'rate-limited') throw new HttpError(502, `channels:${key}`, { values })
			// Said beside what to fix: the token, or the page Meta does not know (or that has no Instagram account).
			const onPage = key === 'providerErrors.metaPageNotFound' || key === 'providerErrors.metaInstagramNotLinked'
			throw fieldError(req, 422, onPage ? 'settings.pageId' : `credentials.${field}`, `channels:${key}`, values)
		}
	}

	/** What a manager pastes into the provider's console: the webhook's address and, for Meta, the verify token. */
	function webhookOf(channel: Pick<PublicChannel, 'kind' | 'id'>, credentials: Record<string, string>) {
		if (channel.kind === 'link') return null
		return { url: webhookUrl(config, channel), verifyToken: credentials.verifyToken ?? null }
	}

	return router
}

/** Credentials as a manager may see them: enough of the end to tell which token is kept (`••••Wx9z`), never the rest. */
export function maskCredentials(credentials: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(credentials).map(([name, value]) => [name, value.length >= 16 ? `••••${value.slice(-4)}` : '••••']))
}
