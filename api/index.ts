import express, { Router, type RequestHandler } from 'express'
import { type Logger } from 'pino'
import { type Config } from '#config/config.ts'
import { publishTarget, resolveRealtimeConfig } from '#config/realtime-config.ts'
import { apiChannelRouter, isChannelMessageUpload } from './api-channel/router.ts'
import { attachmentsRouter } from './attachments/router.ts'
import { auditLogRouter } from './audit/router.ts'
import { authRouter } from './auth/router.ts'
import { campaignsRouter } from './campaigns/router.ts'
import { cannedResponsesRouter } from './canned-responses/router.ts'
import { channelsRouter } from './channels/router.ts'
import { type ApiContext } from './context.ts'
import { contactsRouter, isCsvImport } from './contacts/router.ts'
import { docsRouter } from './docs/router.ts'
import { conversationsRouter, isMessageUpload } from './conversations/router.ts'
import { errorHandler, HttpError, notFound } from './http/errors.ts'
import { refuseTokensWhereNever } from './http/authenticate.ts'
import { apiLocale, translatorFor } from './http/i18n.ts'
import { refuseNulCharacters } from './http/nul.ts'
import { labelsRouter } from './labels/router.ts'
import { presenceRouter, pushRouter } from './notifications/push-router.ts'
import { teamsRouter } from './teams/router.ts'
import { outgoingWebhooksRouter } from './outgoing-webhooks/router.ts'
import { automationRouter } from './automation/router.ts'
import { linkRouter } from './link/router.ts'
import { isOneClickUnsubscribe, unsubscribeRouter } from './notifications/unsubscribe.ts'
import { accessTokensRouter } from './access-tokens/router.ts'
import { notificationPreferencesRouter, notificationsRouter, userNotificationsRouter } from './notifications/router.ts'
import { createRealtime, type Realtime } from './realtime/publisher.ts'
import { realtimeRouter } from './realtime/router.ts'
import { realtimeWebhookRouter } from './realtime/webhook-router.ts'
import { webhooksRouter } from './webhooks/router.ts'
import { userRouter, workspacesRouter } from './workspaces/router.ts'
import { reportsRouter } from './reports/router.ts'

export type { ApiContext }

type ContextOptions = Omit<ApiContext, 'realtime'> & { realtime?: Realtime }

/** The context routers are built with: realtime as configured unless given. */
function apiContext(options: ContextOptions): ApiContext {
	return {
		...options,
		realtime: options.realtime ?? defaultRealtime(options.config, options.logger),
	}
}

/** The `/v1` API: JSON in, JSON out, every error as `{ message, statusCode, details }`. */
export function createApi(options: ContextOptions): Router {
	const context = apiContext(options)
	const router = Router()
	router.use(apiLanguage)
	router.use((req, _res, next) => {
		const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
		if (hasBody && !req.is('application/json') && !isCsvImport(req) && !isMessageUpload(req) && !isChannelMessageUpload(req) && !isOneClickUnsubscribe(req))
			return next(new HttpError(415, 'errors.unsupportedMediaType'))
		next()
	})
	router.use(express.json({ limit: '1mb', strict: true }))
	router.use(refuseNulCharacters)
	router.use(refuseTokensWhereNever)

	// The contract and its reference page, public; each router's operations are in its `openapi.ts`.
	router.use(docsRouter())
	// Feature routers are mounted here as they land, each with `context`.
	router.use('/auth', authRouter(context))
	// Before `/workspaces`, whose router would authenticate every request a second time on its way through.
	router.use('/workspaces/:id/contacts', contactsRouter(context))
	router.use('/workspaces/:id/labels', labelsRouter(context))
	router.use('/workspaces/:id/teams', teamsRouter(context))
	router.use('/workspaces/:id/webhooks', outgoingWebhooksRouter(context))
	router.use('/workspaces/:id/canned-responses', cannedResponsesRouter(context))
	// Before `/channels`, whose router would authenticate the request a second time on its way through.
	router.use('/workspaces/:id/channels/:channelId/messages', apiChannelRouter(context))
	router.use('/workspaces/:id/channels', channelsRouter(context))
	router.use('/workspaces/:id/conversations', conversationsRouter(context))
	router.use('/workspaces/:id/attachments', attachmentsRouter(context))
	router.use('/workspaces/:id/campaigns', campaignsRouter(context))
	router.use('/workspaces/:id/reports', reportsRouter(context))
	router.use('/workspaces/:id/audit-log', auditLogRouter(context))
	router.use('/workspaces/:id/automation-rules', automationRouter(context))
	router.use('/workspaces/:id/notifications', notificationsRouter(context))
	router.use('/workspaces/:id/notification-preferences', notificationPreferencesRouter(context))
	// Before `/notifications`, which wants a session: a mail's unsubscribe link has none, its token is signed.
	router.use('/notifications/unsubscribe', unsubscribeRouter(context))
	router.use('/notifications', userNotificationsRouter(context))
	router.use('/workspaces/:id/presence', presenceRouter(context))
	router.use('/workspaces/:id/access-tokens', accessTokensRouter(context))
	router.use('/workspaces', workspacesRouter(context))
	router.use('/user/push-subscriptions', pushRouter(context))
	router.use('/user', userRouter(context))
	router.use('/realtime', realtimeRouter(context))
	router.use('/link', linkRouter(context))

	router.use(notFound)
	router.use(errorHandler)
	return router
}

/**
 * `/webhooks`: where providers post (api/webhooks/router.ts), and the realtime server its presence
 * (api/realtime/webhook-router.ts). Beside `/v1`, not in it: the body
 * is read raw for signatures, and no member signs these requests.
 */
export function createWebhooks(options: ContextOptions): Router {
	const router = Router()
	const context = apiContext(options)
	router.use(apiLanguage)
	router.use('/realtime', realtimeWebhookRouter(context))
	router.use(webhooksRouter(context))
	router.use(notFound)
	router.use(errorHandler)
	return router
}

/** The caller's language for messages, and answers never cached. */
const apiLanguage: RequestHandler = (req, res, next) => {
	req.locale = apiLocale(req.headers['accept-language'])
	req.t = translatorFor(req.locale)
	res.setHeader('Cache-Control', 'no-store')
	res.setHeader('Content-Language', req.locale)
	next()
}

/** Publishing as configured; the embedded server is then this process's own, on PORT (the job runner publishes so too). */
export function defaultRealtime(config: Config, logger: Logger): Realtime {
	const target = publishTarget(resolveRealtimeConfig(config))
	return createRealtime({ target: () => target, logger })
}
