import crypto from 'node:crypto'
import { Router, type Request } from 'express'
import { type ApiContext } from '#api/context.ts'
import { isUniqueViolation } from '#api/db/errors.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { channelJson, channelSlugConstraint, findChannel, linkSettingsOf, listChannels, publicChannelColumns, suggestSlug } from './queries.ts'
import { sealCredentials } from './crypto.ts'
import { describeFailure, newWebhookSecret, providerChannel, webhookUrl } from './connection.ts'
import { providerFor } from './providers/index.ts'
import { ProviderError } from './providers/provider.ts'
import { channelKindBody, channelParams, createLinkChannelBody, createTelegramChannelBody, defaultLinkSettings, type LinkSettings, updateLinkChannelBody, updateMessagingChannelBody } from './schemas.ts'

function channelNotFound() {
	return new HttpError(404, 'channels:errors.notFound')
}

/** The 409 of a slug another channel (of any workspace: the link page names none) already has, shown beside the field. */
function slugTaken(req: Request, slug: string) {
	return fieldError(req, 409, 'slug', 'channels:errors.slugTaken', { slug })
}

// A disabled link answers 404 to its visitors; the list shows why.
const statusOf = (enabled: boolean) => (enabled ? 'active' : 'disabled')

/** `/v1/workspaces/:id/channels`: everyone reads (the inbox filters by channel), owners and admins write. Only `link` can be created in this version. */
export function channelsRouter({ db, config, logger }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	const taken = (req: Request, slug: string | undefined) => (error: unknown) => {
		throw slug !== undefined && isUniqueViolation(error, channelSlugConstraint) ? slugTaken(req, slug) : error
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
			if (kind === 'telegram') {
				res.status(201).json(channelJson(await connectTelegram(req, workspace.id)))
				return
			}
			if (kind !== 'link') throw fieldError(req, 422, 'kind', 'channels:errors.kindNotAvailable', { kind })
			const body = parseRequest(req, 'body', createLinkChannelBody)
			const enabled = body.enabled ?? true
			const values = {
				workspaceId: workspace.id,
				kind,
				name: body.name,
				enabled,
				status: statusOf(enabled),
				settings: { ...defaultLinkSettings, ...body.settings },
			} as const
			const insert = (slug: string) => db.insertInto('channels').values({ ...values, slug }).returning(publicChannelColumns).executeTakeFirstOrThrow()
			let created
			if (body.slug) created = await insert(body.slug).catch(taken(req, body.slug))
			else {
				// Two channels of the same name at once: the second takes a random suffix rather than a 409 for a slug nobody typed.
				const suggested = await suggestSlug(db, body.name)
				created = await insert(suggested).catch(async (error: unknown) => {
					if (!isUniqueViolation(error, channelSlugConstraint)) throw error
					return insert(`${suggested}-${Date.now().toString(36)}`)
				})
			}
			res.status(201).json(channelJson(created))
		}),
	)

	router.get(
		'/:channelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await findChannel(db, workspace.id, channelId)
			if (!found) throw channelNotFound()
			res.json(channelJson(found))
		}),
	)

	router.patch(
		'/:channelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await findChannel(db, workspace.id, channelId)
			if (!found) throw channelNotFound()
			// A messaging channel's settings are learnt from its provider: only its name and switch change here.
			const changes: { name?: string; slug?: string; enabled?: boolean; settings?: Partial<LinkSettings> } =
				found.kind === 'link' ? parseRequest(req, 'body', updateLinkChannelBody) : parseRequest(req, 'body', updateMessagingChannelBody)
			const { settings, ...columns } = changes
			const updated = await db
				.updateTable('channels')
				.set({
					...columns,
					...(changes.enabled === undefined ? {} : { status: statusOf(changes.enabled) }),
					...(settings ? { settings: { ...linkSettingsOf(found), ...settings } } : {}),
					updatedAt: new Date(),
				})
				.where('workspaceId', '=', workspace.id)
				.where('id', '=', channelId)
				.returning(publicChannelColumns)
				.executeTakeFirst()
				.catch(taken(req, changes.slug))
			if (!updated) throw channelNotFound()
			res.json(channelJson(updated))
		}),
	)

	router.delete(
		'/:channelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { channelId } = parseParams(req, channelParams, channelNotFound)
			const found = await db.selectFrom('channels').selectAll().where('workspaceId', '=', workspace.id).where('id', '=', channelId).executeTakeFirst()
			const provider = found && providerFor(found.kind)
			// The provider stops sending us its events first; failing that (a revoked token) must not keep the channel.
			if (found && provider?.disconnect) {
				await provider.disconnect(providerChannel(found, config.ENCRYPTION_KEY), config).catch((error: unknown) => {
					logger.warn({ err: error, channelId }, 'the provider did not disconnect the channel')
				})
			}
			const deleted = await db.deleteFrom('channels').where('workspaceId', '=', workspace.id).where('id', '=', channelId).executeTakeFirst()
			if (deleted.numDeletedRows === 0n) throw channelNotFound()
			res.status(204).end()
		}),
	)

	/**
	 * A Telegram channel: the token is checked with the Bot API itself (getMe) before anything is
	 * kept, then the bot's webhook is set to ours with the channel's secret. A refusal is said beside
	 * the token field; Telegram out of reach is a 502.
	 */
	async function connectTelegram(req: Request, workspaceId: string) {
		const body = parseRequest(req, 'body', createTelegramChannelBody)
		const provider = providerFor('telegram')!
		const draft = { id: crypto.randomUUID(), workspaceId, kind: 'telegram' as const, settings: {}, credentials: body.credentials, webhookSecret: newWebhookSecret() }
		const refused = (error: unknown) => {
			if (!(error instanceof ProviderError)) throw error
			const { key, values } = describeFailure(provider, error)
			if (error.kind === 'unavailable' || error.kind === 'rate-limited') throw new HttpError(502, `channels:${key}`, { values })
			throw fieldError(req, 422, 'credentials.botToken', `channels:${key}`, values)
		}
		const learnt = await provider.validateCredentials!(draft, config).catch(refused)
		const enabled = body.enabled ?? true
		const created = await db
			.insertInto('channels')
			.values({
				id: draft.id,
				workspaceId,
				kind: 'telegram',
				name: body.name,
				enabled,
				status: statusOf(enabled),
				settings: learnt,
				credentials: sealCredentials(body.credentials, config.ENCRYPTION_KEY),
				webhookSecret: draft.webhookSecret,
			})
			.returning(publicChannelColumns)
			.executeTakeFirstOrThrow()
		try {
			await provider.connect!(draft, webhookUrl(config, created), config)
		} catch (error) {
			await db.deleteFrom('channels').where('id', '=', created.id).execute()
			refused(error)
		}
		return created
	}

	return router
}
