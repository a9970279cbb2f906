import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import { pinoHttp } from 'pino-http'
import { forgetConnections } from '#api/assignment/presence.ts'
import { createApi, createWebhooks } from '#api/index.ts'
import { readingOncePerPage } from '#api/http/page-reads.ts'
import { isReachable, type DatabaseHandle } from '#api/db/database.ts'
import { type JobRunner } from '#api/jobs/queue.ts'
import { createRealtime } from '#api/realtime/publisher.ts'
import { type RealtimeBrowserConfig } from '#common/realtime.ts'
import { createRealtimeServer } from '#realtime/index.ts'
import { locales } from '#locales/languages.ts'
import { type Config } from '#config/config.ts'
import { healthRoutes } from './health.ts'
import { refuseForeignOrigin } from './csrf.ts'
import { securityHeaders } from './security-headers.ts'
import { discardUnreadBody } from './unread-body.ts'
import { anonymousPageCache } from './page-cache.ts'
import { createPageHandler } from './page-handler.ts'
import { privatePages } from './private-pages.ts'
import { i18nMessages } from './i18n-messages.ts'
import { inProcessApi, type InProcessFetch } from './in-process-api.ts'
import { requestMessages, type Logger } from './logger.ts'
import { publishTarget, realtimeServerOptions, resolveRealtimeConfig } from '#config/realtime-config.ts'

declare module '@remix-run/node' {
	interface AppLoadContext {
		/** The nonce of this response's Content-Security-Policy, for `<Scripts nonce>`. */
		cspNonce: string
		/** The visitor's address (X-Forwarded-For is believed from TRUST_PROXY's proxies only: loopback by default). */
		clientIp: string
		/** Where the backend-for-frontend reaches the `/v1` API. */
		apiBaseUrl: string
		/** How: in-process when this process mounts the API, else over HTTP. */
		apiFetch: InProcessFetch
		config: Pick<Config, 'PUBLIC_URL' | 'HOME_REDIRECT' | 'ALLOWED_REDIRECT_HOSTS' | 'isProduction' | 'UPLOAD_MAX_BYTES'>
		/** What pusher-js needs to connect (public values only). */
		realtime: RealtimeBrowserConfig
	}
}

const quietPaths = new Set(['/healthz', '/readyz'])
/** How long a shutdown goes on serving the connections already open (see close). */
const idleGraceMs = 500

export type AppServer = {
	server: http.Server
	/** Resolves once listening; the URL uses the real port (PORT=0 picks a free one). */
	listen: () => Promise<string>
	/** Stops accepting connections, lets in-flight requests finish, then closes the database. */
	close: () => Promise<void>
}

/**
 * `startJobs` runs once the server listens: the jobs publish to the embedded realtime server on
 * this port (the demo's first replies did so before it was up, and every publish failed).
 */
export async function createAppServer(options: {
	config: Config
	logger: Logger
	database: DatabaseHandle
	startJobs?: () => Promise<JobRunner>
}): Promise<AppServer> {
	const { config, logger, database } = options
	const app = express()
	app.disable('x-powered-by')
	app.set(
		'trust proxy',
		config.TRUST_PROXY.split(',').map((part) => part.trim()),
	)
	const server = http.createServer(app)
	// Longer than a proxy's idle connections in front (60 s for AWS's load balancers and nginx's upstream keep-alive): with
	// Node's 5 s, a connection reused just as the server closed it was reset (a 502 behind a proxy; once in the browser tests).
	server.keepAliveTimeout = 65_000
	server.headersTimeout = 66_000
	let apiBaseUrl = config.API_BASE_URL ?? ''
	let shuttingDown = false
	// The responses being written: once shutdown begins, each tells its client to close the connection
	// rather than send its next request on it (which the closing server would reset).
	const inFlight = new Set<http.ServerResponse>()
	app.use((_req, res, next) => {
		if (shuttingDown) res.setHeader('Connection', 'close')
		else {
			inFlight.add(res)
			res.once('close', () => inFlight.delete(res))
		}
		next()
	})

	const realtimeConfig = resolveRealtimeConfig(config)
	// Without PUSHER_HOST this process is also the Pusher-protocol server, on the same port.
	let realtimePort = realtimeConfig.port
	// Its presence webhooks go to this process's API (or the API elsewhere): who is connected, for auto-assignment.
	const presenceWebhook = {
		url: () =>
			config.API_BASE_URL
				? new URL('/webhooks/realtime', config.API_BASE_URL).href
				: `http://${hostForUrl(realtimeConfig.host)}:${realtimePort}/webhooks/realtime`,
		eventTypes: ['member_added', 'member_removed'] as const,
	}
	const realtimeServer = realtimeConfig.embedded
		? createRealtimeServer({
				apps: [{ ...realtimeConfig.app, webhooks: [presenceWebhook] }],
				logger: logger.child({ module: 'realtime' }),
				...realtimeServerOptions(config),
			})
		: undefined
	const realtime = createRealtime({ target: () => publishTarget(realtimeConfig, realtimePort), logger })
	if (realtimeServer) {
		// Its HTTP API reads its own bodies; mounted before the request log, which would log every publish.
		app.use(realtimeServer.httpHandler)
		server.on('upgrade', (req, socket, head) => {
			if (!realtimeServer.handleUpgrade(req, socket, head)) socket.destroy()
		})
	}
	logger.info(realtimeServer ? 'realtime: embedded Pusher-protocol server' : `realtime: ${realtimeConfig.host}:${realtimeConfig.port}`)

	// A 503 is the database away for a moment (api/http/errors.ts has said why, once): not an error of ours, nor one line per request at that level.
	const levelOf = (statusCode: number, error: Error | undefined) =>
		statusCode === 503 ? 'warn' : error || statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'info'
	const requestLogOf = (successLevel: 'info' | 'debug') =>
		pinoHttp({
			logger,
			genReqId: (req, res) => {
				const incoming = req.headers['x-request-id']
				const id = typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID()
				res.setHeader('X-Request-Id', id)
				return id
			},
			autoLogging: { ignore: (req) => quietPaths.has(req.url?.split('?')[0] ?? '') },
			...requestMessages,
			customLogLevel: (_req, res, error) => {
				const level = levelOf(res.statusCode, error)
				return level === 'info' ? successLevel : level
			},
			serializers: {
				req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: req.url }),
				res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
			},
		})
	const requestLog = requestLogOf('info')
	app.use(requestLog)
	app.use(discardUnreadBody(config.UPLOAD_MAX_BYTES))

	app.use(healthRoutes({ isReady: () => isReachable(database.db), isStopping: () => shuttingDown }))

	const development = !config.isProduction
	app.use(securityHeaders(config))
	app.use(compression())

	const api = config.API_BASE_URL ? undefined : createApi({ db: database.db, config, logger, realtime })
	if (api) {
		app.use('/v1', api)
		app.use('/webhooks', createWebhooks({ db: database.db, config, logger, realtime }))
	}
	// Pages call the API mounted here in-process, and over HTTP only when API_BASE_URL is elsewhere.
	// A page's API calls log at debug when they succeed: the page's own line says it was served (a failed one still warns).
	const inProcess = api ? inProcessApi({ api, requestLog: requestLogOf('debug') }) : undefined
	const apiFetch = inProcess?.fetch ?? fetch
	app.get('/_i18n/:locale/:file', i18nMessages)

	const remix = development ? await developmentBuild(app) : await productionBuild(app)
	app.use(refuseForeignOrigin(config.PUBLIC_URL))
	// A signed-in visitor's pages are kept by no cache (decision 015).
	app.use(privatePages())
	// A post's body is capped at its page's limit before Remix reads it (decision 015).
	const pages = createPageHandler({
		build: remix.build,
		mode: config.NODE_ENV,
		uploadMaxBytes: config.UPLOAD_MAX_BYTES,
		getLoadContext: (req, res) => ({
			cspNonce: res.locals.cspNonce as string,
			clientIp: req.ip ?? '',
			apiBaseUrl,
			apiFetch,
			config: {
				PUBLIC_URL: config.PUBLIC_URL,
				HOME_REDIRECT: config.HOME_REDIRECT,
				ALLOWED_REDIRECT_HOSTS: config.ALLOWED_REDIRECT_HOSTS,
				isProduction: config.isProduction,
				UPLOAD_MAX_BYTES: config.UPLOAD_MAX_BYTES,
			},
			realtime: realtimeConfig.browser,
		}),
	})
	// The public pages an anonymous visitor opens first are rendered once a minute, not per request (built pages only).
	const publicPages = anonymousPageCache({ paths: new RegExp(`^/(${locales.join('|')})(/auth/(login|signup|forgot-password))?$`), ttlMs: 60_000 })
	if (!development) app.get('*', publicPages)
	// A page's in-process API calls authenticate its token once (api/http/authenticate.ts).
	app.all('*', (req, res, next) => readingOncePerPage(() => pages(req, res, next)))

	let jobs: JobRunner | undefined
	return {
		server,
		listen: async () => {
			// Nobody is connected to this process's realtime server before it listens, whatever the rows say.
			if (realtimeServer && api) await forgetConnections(database.db, realtime, config.PRESENCE_OFFLINE_AFTER)
			return new Promise((resolve, reject) => {
				server.once('error', reject)
				server.listen(config.PORT, config.HOST, () => {
					const address = server.address()
					const port = address && typeof address === 'object' ? address.port : config.PORT
					const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST
					const url = `http://${hostForUrl(host)}:${port}`
					if (!config.API_BASE_URL) apiBaseUrl = `${url}/v1`
					if (realtimeServer) realtimePort = port
					Promise.resolve(options.startJobs?.())
						.then((runner) => {
							jobs = runner
							resolve(url)
						})
						.catch(reject)
				})
			})
		},
		close: async () => {
			shuttingDown = true
			for (const res of inFlight) {
				// A response already under way (its headers sent) ends its connection when it is done.
				if (!res.headersSent) res.setHeader('Connection', 'close')
				else res.once('finish', () => res.socket?.end())
			}
			// No new connection. The open ones are still served for a moment, each answer with Connection: close:
			// a client under load sends its next request on its keep-alive connection before it could know,
			// and closing that connection now would reset the request. Those left idle are closed after it.
			// (net's close: http's own closes the idle connections at once.)
			const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()))
			const grace = setTimeout(() => server.closeIdleConnections(), idleGraceMs)
			// Open WebSockets would hold server.close() for ever: they are told to reconnect, then closed.
			await realtimeServer?.close()
			await closed
			clearTimeout(grace)
			await inProcess?.idle()
			await remix.close()
			await jobs?.stop()
			await database.close()
		},
	}
}

/** A host as a URL writes it: an IPv6 address in brackets. */
const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host)

type RemixBuild = { build: ServerBuild | (() => Promise<ServerBuild>); close: () => Promise<void> }

/** Development: Vite serves the modules and renders through its SSR loader, with HMR. */
async function developmentBuild(app: express.Express): Promise<RemixBuild> {
	const vite = await import('vite')
	// Vite servers not in middleware mode (the Remix plugin's child compiler, created later) exit the
	// process on SIGTERM once they have closed, with code 143, before server.ts has finished the
	// requests in flight: their hook is taken off as it is added; server.ts stops them (close below).
	process.on('newListener', (event: string | symbol, listener: (...args: unknown[]) => void) => {
		if (event === 'SIGTERM' && listener.name === 'parentSigtermCallback') queueMicrotask(() => process.off('SIGTERM', listener))
	})
	const devServer = await vite.createServer({ server: { middlewareMode: true }, appType: 'custom' })
	app.use(devServer.middlewares)
	return {
		build: () => devServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
		close: () => devServer.close(),
	}
}

const pushWorkerPath = '/push-worker.js'

/** Production: the Vite build's assets (hashed names: cached for a year) and its server bundle. */
async function productionBuild(app: express.Express): Promise<RemixBuild> {
	const clientDir = path.resolve('build/client')
	app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }))
	// The other public files are known once built: a page request is not looked up on disk first.
	const publicFiles = new Set(fs.readdirSync(clientDir).map((name) => `/${name}`))
	const serveFile = express.static(clientDir, { maxAge: '1h', index: false })
	// The push service worker (public/push-worker.js): revalidated each time, so a new one reaches browsers at once; its scope is the whole site.
	const serveWorker = express.static(clientDir, { maxAge: 0, index: false, setHeaders: (res) => res.setHeader('Service-Worker-Allowed', '/') })
	app.use((req, res, next) => (req.path === pushWorkerPath ? serveWorker(req, res, next) : publicFiles.has(req.path) ? serveFile(req, res, next) : next()))
	const build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as ServerBuild
	return { build, close: async () => {} }
}
