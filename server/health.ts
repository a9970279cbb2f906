import { Router } from 'express'

/** GET /healthz: the process is up. GET /readyz: and it can reach the database. */
export function healthRoutes(options: { isReady: () => Promise<boolean>; isStopping: () => boolean }): Router {
	const router = Router()
	router.get('/healthz', (_req, res) => {
		const stopping = options.isStopping()
		res.status(stopping ? 503 : 200).json({ status: stopping ? 'stopping' : 'ok' })
	})
	router.get('/readyz', async (_req, res) => {
		const ready = !options.isStopping() && (await options.isReady())
		res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', database: ready ? 'up' : 'down' })
	})
	return router
}
