import crypto from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import { type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import helmet from 'helmet'
import { pinoHttp } from 'pino-http'
import { createApi } from '#api/index.ts'
import { isReachable, type DatabaseHandle } from '#api/db/database.ts'
import { type Config } from './config.ts'
import { healthRoutes } from './health.ts'
import { refuseForeignOrigin } from './csrf.ts'
import { i18nMessages } from './i18n-messages.ts'
import { type Logger } from './logger.ts'

declare module '@remix-run/node' {
	interface AppLoadContext {
		/** The nonce of this response's Content-Security-Policy, for `<Scripts nonce>`. */
		cspNonce: string
		/** The visitor's address (X-Forwarded-For is believed from loopback proxies only). */
		clientIp: string
		/** Where the backend-for-frontend reaches the `/v1` API. */
		apiBaseUrl: string
		config: Pick<Config, 'PUBLIC_URL' | 'HOME_REDIRECT' | 'ALLOWED_REDIRECT_HOSTS' | 'isProduction'>
	}
}

const quietPaths = new Set(['/healthz', '/readyz'])

export type AppServer = {
	server: http.Server
	/** Resolves once listening; the URL uses the real port (PORT=0 picks a free one). */
	listen: () => Promise<string>
	/** Stops accepting connections, lets in-flight requests finish, then closes the database. */
	close: () => Promise<void>
}

export async function createAppServer(options: { config: Config; logger: Logger; database: DatabaseHandle }): Promise<AppServer> {
	const { config, logger, database } = options
	const app = express()
	app.disable('x-powered-by')
	app.set('trust proxy', 'loopback')
	const server = http.createServer(app)
	let apiBaseUrl = config.API_BASE_URL ?? ''
	let shuttingDown = false

	app.use(
		pinoHttp({
			logger,
			genReqId: (req, res) => {
				const incoming = req.headers['x-request-id']
				const id = typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID()
				res.setHeader('X-Request-Id', id)
				return id
			},
			autoLogging: { ignore: (req) => quietPaths.has(req.url?.split('?')[0] ?? '') },
			customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
			serializers: {
				req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: req.url }),
				res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
			},
		}),
	)

	app.use(healthRoutes({ isReady: () => isReachable(database.db), isStopping: () => shuttingDown }))

	app.use((_req, res, next) => {
		res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
		next()
	})
	const development = !config.isProduction
	app.use(
		helmet({
			contentSecurityPolicy: {
				useDefaults: true,
				directives: {
					'default-src': ["'self'"],
					// Pages run only the scripts they were rendered with; 'strict-dynamic' lets those load their chunks.
					'script-src': ["'strict-dynamic'", "'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
					'script-src-attr': ["'none'"],
					// React renders style attributes and sonner injects its stylesheet at run time.
					'style-src': ["'self'", "'unsafe-inline'"],
					'img-src': ["'self'", 'data:', 'blob:'],
					'font-src': ["'self'", 'data:'],
					'connect-src': ["'self'", 'ws:', 'wss:', ...(development ? ['ws://localhost:*', 'ws://127.0.0.1:*'] : [])],
					'form-action': ["'self'"],
					'frame-ancestors': ["'none'"],
					'object-src': ["'none'"],
					'base-uri': ["'self'"],
					'upgrade-insecure-requests': config.PUBLIC_URL.startsWith('https://') ? [] : null,
				},
			},
			crossOriginEmbedderPolicy: false,
			strictTransportSecurity: config.PUBLIC_URL.startsWith('https://'),
		}),
	)
	app.use(compression())

	if (!config.API_BASE_URL) app.use('/v1', createApi({ db: database.db, config, logger }))
	app.get('/_i18n/:locale/messages.json', i18nMessages)

	const remix = development ? await developmentBuild(app) : await productionBuild(app)
	app.use(refuseForeignOrigin(config.PUBLIC_URL))
	app.all(
		'*',
		createRequestHandler({
			build: remix.build,
			mode: config.NODE_ENV,
			getLoadContext: (req, res) => ({
				cspNonce: res.locals.cspNonce as string,
				clientIp: req.ip ?? '',
				apiBaseUrl,
				config: {
					PUBLIC_URL: config.PUBLIC_URL,
					HOME_REDIRECT: config.HOME_REDIRECT,
					ALLOWED_REDIRECT_HOSTS: config.ALLOWED_REDIRECT_HOSTS,
					isProduction: config.isProduction,
				},
			}),
		}),
	)

	return {
		server,
		listen: () =>
			new Promise((resolve, reject) => {
				server.once('error', reject)
				server.listen(config.PORT, config.HOST, () => {
					const address = server.address()
					const port = address && typeof address === 'object' ? address.port : config.PORT
					const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST
					const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
					if (!config.API_BASE_URL) apiBaseUrl = `${url}/v1`
					resolve(url)
				})
			}),
		close: async () => {
			shuttingDown = true
			await new Promise<void>((resolve) => {
				server.close(() => resolve())
				server.closeIdleConnections()
			})
			await remix.close()
			await database.close()
		},
	}
}

type RemixBuild = { build: ServerBuild | (() => Promise<ServerBuild>); close: () => Promise<void> }

/** Development: Vite serves the modules and renders through its SSR loader, with HMR. */
async function developmentBuild(app: express.Express): Promise<RemixBuild> {
	const vite = await import('vite')
	const devServer = await vite.createServer({ server: { middlewareMode: true }, appType: 'custom' })
	app.use(devServer.middlewares)
	return {
		build: () => devServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
		close: () => devServer.close(),
	}
}

/** Production: the Vite build's assets (hashed names: cached for a year) and its server bundle. */
async function productionBuild(app: express.Express): Promise<RemixBuild> {
	const clientDir = path.resolve('build/client')
	app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }))
	app.use(express.static(clientDir, { maxAge: '1h', index: false }))
	const build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as ServerBuild
	return { build, close: async () => {} }
}
