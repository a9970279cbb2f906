import { Router, type Request } from 'express'
import { sql } from 'kysely'
import { approvedTemplate, fillTemplate } from '#api/channels/templates.ts'
import { csvLine } from '#api/contacts/csv.ts'
import { recordAudit } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { type DB } from '#api/db/database.ts'
import { type Campaign, type Channel, type Workspace } from '#api/db/schema.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { offsetOf } from '#api/http/pagination.ts'
import { parseRequest } from '#api/http/validate.ts'
import { existingLabelIds } from '#api/labels/queries.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import {
	type CampaignJson,
	findCampaign,
	type MessagePreviewJson,
	type RecipientPageJson,
	instantIn,
	listCampaigns,
	previewAudience,
	renderMessage,
} from './queries.ts'
import { audienceBody, type CampaignInput, campaignParams, createCampaignBody, messagePreviewQuery, recipientsQuery, updateCampaignBody } from './schemas.ts'
import { createCampaign, deleteCampaign, editable, editCampaign } from './actions.ts'
import { announceCampaign, cancelCampaign, launchCampaign, pauseCampaign, resumeCampaign } from './sending.ts'

export function campaignNotFound() {
	return new HttpError(404, 'campaigns:errors.notFound')
}

// A campaign is edited, deleted or started only before it starts.

/** `/v1/workspaces/:id/campaigns`: owners and admins create, edit, start, pause, resume, cancel and delete; agents read. */
export function campaignsRouter({ db, realtime, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	async function requireCampaign(req: Request, workspaceId: string) {
		const { campaignId } = parseParams(req, campaignParams, campaignNotFound)
		const campaign = await db.selectFrom('campaigns').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', campaignId).executeTakeFirst()
		if (!campaign) throw campaignNotFound()
		return campaign
	}

	async function requireChannel(req: Request, workspaceId: string, channelId: string): Promise<Channel> {
		const channel = await db.selectFrom('channels').selectAll().where('workspaceId', '=', workspaceId).where('id', '=', channelId).executeTakeFirst()
		if (!channel) throw fieldError(req, 422, 'channelId', 'campaigns:errors.channelNotFound')
		return channel
	}

	async function checkLabels(req: Request, workspaceId: string, input: Pick<CampaignInput, 'labelsIn' | 'labelsOut'>) {
		for (const field of ['labelsIn', 'labelsOut'] as const) {
			const known = await existingLabelIds(db, workspaceId, input[field])
			if (input[field].some((id) => !known.has(id))) throw fieldError(req, 422, field, 'campaigns:errors.labelNotFound')
		}
	}

	/** The campaign's message as stored: a text with variables, or (WhatsApp) an approved template whose text becomes the body. */
	async function checkMessage(
		req: Request,
		channel: Channel,
		input: Pick<CampaignInput, 'body' | 'template'>,
	): Promise<Pick<CampaignInput, 'body' | 'template'>> {
		if (channel.kind !== 'whatsapp') {
			if (input.template) throw fieldError(req, 422, 'template.name', 'inbox:errors.templatesNotAvailable')
			if (!input.body) throw fieldError(req, 400, 'body', 'campaigns:validation.bodyRequired')
			return { body: input.body, template: null }
		}
		// WhatsApp opens a conversation with a business only through an approved template.
		if (!input.template) throw fieldError(req, 422, 'template.name', 'campaigns:errors.templateRequired')
		const template = await approvedTemplate(req, channel, config, input.template)
		return { body: template.body, template: input.template }
	}

	function scheduledAtOf(req: Request, value: string | null, timezone: string): Date | null {
		if (!value) return null
		const at = instantIn(value, timezone)
		// Years 1 to 9999 only: JavaScript reaches back to 271 821 BC, PostgreSQL to 4713 BC (a 500 beyond).
		if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999)
			throw fieldError(req, 400, 'scheduledAt', 'campaigns:validation.scheduledAt')
		return at
	}

	/** What is stored of a campaign's fields, each checked against the workspace (channel, labels, template, time zone). */
	async function checkedValues(req: Request, workspace: Pick<Workspace, 'id' | 'timezone'>, input: CampaignInput) {
		const channel = await requireChannel(req, workspace.id, input.channelId)
		await checkLabels(req, workspace.id, input)
		const message = await checkMessage(req, channel, input)
		return {
			name: input.name,
			channelId: channel.id,
			labelsIn: input.labelsIn,
			labelsOut: input.labelsOut,
			...message,
			scheduledAt: scheduledAtOf(req, input.scheduledAt, workspace.timezone),
			ratePerSecond: input.ratePerSecond,
		}
	}

	// Our own reasons are stored as keys, the provider's in its words.
	const translated = (req: Request, campaign: CampaignJson): CampaignJson => ({
		...campaign,
		statusDetail: campaign.statusDetail?.startsWith('campaigns:') ? req.t(campaign.statusDetail) : campaign.statusDetail,
	})

	async function answer(req: Request, workspaceId: string, campaignId: string) {
		const campaign = await findCampaign(db, workspaceId, campaignId)
		if (!campaign) throw campaignNotFound()
		return translated(req, campaign)
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json({ campaigns: (await listCampaigns(db, workspace.id)).map((campaign) => translated(req, campaign)) })
		}),
	)

	// Nothing is sent nor kept: how many contacts an audience reaches, and the first of them.
	router.post(
		'/audience',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const body = parseRequest(req, 'body', audienceBody)
			await requireChannel(req, workspace.id, body.channelId)
			await checkLabels(req, workspace.id, body)
			res.json(await previewAudience(db, { workspaceId: workspace.id, ...body }))
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createCampaignBody)
			const values = await checkedValues(req, workspace, body)
			const campaignId = await createCampaign(db, workspace.id, values, req.user.id)
			void announceCampaign(db, realtime, workspace.id, campaignId)
			res.status(201).json(await answer(req, workspace.id, campaignId))
		}),
	)

	router.get(
		'/:campaignId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const campaign = await requireCampaign(req, workspace.id)
			res.json(await answer(req, workspace.id, campaign.id))
		}),
	)

	router.patch(
		'/:campaignId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const campaign = await requireCampaign(req, workspace.id)
			if (!editable.includes(campaign.status))
				throw new HttpError(409, 'campaigns:errors.notEditable', { values: { status: req.t(`campaigns:status.${campaign.status}`) } })
			const changes = parseRequest(req, 'body', updateCampaignBody)
			const merged: CampaignInput = {
				name: changes.name ?? campaign.name,
				channelId: changes.channelId ?? campaign.channelId,
				labelsIn: changes.labelsIn ?? campaign.labelsIn,
				labelsOut: changes.labelsOut ?? campaign.labelsOut,
				body: changes.body ?? (campaign.template ? '' : campaign.body),
				template: changes.template === undefined ? campaign.template : changes.template,
				scheduledAt: changes.scheduledAt === undefined ? (campaign.scheduledAt?.toISOString() ?? null) : changes.scheduledAt,
				ratePerSecond: changes.ratePerSecond === undefined ? campaign.ratePerSecond : changes.ratePerSecond,
			}
			const values = await checkedValues(req, workspace, merged)
			await editCampaign(db, campaign, values)
			void announceCampaign(db, realtime, workspace.id, campaign.id)
			res.json(await answer(req, workspace.id, campaign.id))
		}),
	)

	router.delete(
		'/:campaignId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const campaign = await requireCampaign(req, workspace.id)
			if (campaign.status === 'running') throw new HttpError(409, 'campaigns:errors.stillRunning')
			await deleteCampaign(db, campaign.id)
			void announceCampaign(db, realtime, workspace.id, campaign.id)
			res.status(204).end()
		}),
	)

	const transitions = {
		start: { from: ['draft'], run: launchCampaign },
		pause: { from: ['running'], run: (trx, campaign) => pauseCampaign(trx, campaign.id) },
		resume: { from: ['paused', 'failed'], run: (trx, campaign) => resumeCampaign(trx, campaign.id) },
		cancel: { from: ['draft', 'scheduled', 'running', 'paused', 'failed'], run: (trx, campaign) => cancelCampaign(trx, campaign.id) },
	} satisfies Record<string, { from: Array<Campaign['status']>; run: (trx: DB, campaign: Campaign) => Promise<unknown> }>

	for (const [action, transition] of Object.entries(transitions)) {
		router.post(
			`/:campaignId/${action}`,
			handler(async (req, res) => {
				const { workspace } = await requireMember(db, req, managers)
				const found = await requireCampaign(req, workspace.id)
				const changed = await db.transaction().execute(async (trx) => {
					const campaign = await trx.selectFrom('campaigns').selectAll().where('id', '=', found.id).forUpdate().executeTakeFirstOrThrow()
					if (!(transition.from as readonly string[]).includes(campaign.status)) return undefined
					if (action === 'start' && !(campaign.scheduledAt && campaign.scheduledAt.getTime() > Date.now())) {
						const channel = await trx.selectFrom('channels').select('enabled').where('id', '=', campaign.channelId).executeTakeFirstOrThrow()
						if (!channel.enabled) throw new HttpError(409, 'campaigns:reasons.channelDisabled')
					}
					const done = await transition.run(trx, campaign)
					if (action === 'start' || action === 'cancel') {
						await recordAudit(trx, workspace.id, req.user, action === 'start' ? 'campaign.started' : 'campaign.cancelled', {
							campaign: campaign.name,
							campaignId: campaign.id,
						})
					}
					return done
				})
				if (!changed) throw new HttpError(409, `campaigns:errors.cannot.${action}`, { values: { status: req.t(`campaigns:status.${found.status}`) } })
				void announceCampaign(db, realtime, workspace.id, found.id)
				res.json(await answer(req, workspace.id, found.id))
			}),
		)
	}

	router.get(
		'/:campaignId/recipients',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const campaign = await requireCampaign(req, workspace.id)
			const query = parseRequest(req, 'query', recipientsQuery)
			let rows = db
				.selectFrom('campaignRecipients')
				.innerJoin('contacts', 'contacts.id', 'campaignRecipients.contactId')
				.select([
					'campaignRecipients.contactId',
					'contacts.name',
					'campaignRecipients.status',
					'campaignRecipients.reason',
					'campaignRecipients.sentAt',
					'campaignRecipients.updatedAt',
				])
				.where('campaignRecipients.campaignId', '=', campaign.id)
				.orderBy('campaignRecipients.id')
			if (query.status) rows = rows.where('campaignRecipients.status', '=', query.status)
			const reasonOf = (reason: string | null) => (reason?.startsWith('campaigns:') ? req.t(reason) : reason)
			if (query.format === 'csv') {
				await recordAudit(db, workspace.id, req.user, 'export.campaignRecipients', { campaign: campaign.name, campaignId: campaign.id })
				const all = await rows.execute()
				res.setHeader('Content-Type', 'text/csv; charset=utf-8')
				res.setHeader('Content-Disposition', `attachment; filename="campaign-${campaign.id}.csv"`)
				res.send(
					[
						csvLine(['contact_id', 'name', 'status', 'reason', 'sent_at']),
						...all.map((row) => csvLine([row.contactId, row.name, row.status, reasonOf(row.reason), row.sentAt?.toISOString() ?? ''])),
					].join(''),
				)
				return
			}
			const [page, total] = await Promise.all([
				rows.limit(query.limit).offset(offsetOf(query)).execute(),
				db
					.selectFrom('campaignRecipients')
					.select(sql<number>`count(*)::int`.as('count'))
					.where('campaignId', '=', campaign.id)
					.$if(Boolean(query.status), (qb) => qb.where('status', '=', query.status!))
					.executeTakeFirstOrThrow(),
			])
			res.json({
				recipients: page.map((row) => ({
					...row,
					reason: reasonOf(row.reason),
					sentAt: row.sentAt?.toISOString() ?? null,
					updatedAt: row.updatedAt.toISOString(),
				})),
				total: total.count,
				page: query.page,
				limit: query.limit,
			} satisfies RecipientPageJson)
		}),
	)

	// The message as one real contact of the audience (or the one asked for) would read it.
	router.get(
		'/:campaignId/message-preview',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const campaign = await requireCampaign(req, workspace.id)
			const { contactId } = parseRequest(req, 'query', messagePreviewQuery)
			const contact = await db
				.selectFrom('contacts')
				.select(['id', 'name', 'company', 'email', 'phone', 'attributes'])
				.where('workspaceId', '=', workspace.id)
				.$if(Boolean(contactId), (qb) => qb.where('id', '=', contactId!))
				.orderBy('nameKey')
				.limit(1)
				.executeTakeFirst()
			if (!contact) throw new HttpError(404, 'campaigns:errors.noContact')
			const body = campaign.template
				? fillTemplate(
						campaign.body,
						campaign.template.parameters.map((parameter) => renderMessage(parameter, contact)),
					)
				: renderMessage(campaign.body, contact)
			res.json({ contactId: contact.id, name: contact.name, body } satisfies MessagePreviewJson)
		}),
	)

	return router
}
