import { type NextFunction, type Request, type RequestHandler, type Response } from 'express'

/** An async route for Express 4, which does not catch rejected promises itself. */
export function handler(route: (req: Request, res: Response) => Promise<unknown>): RequestHandler {
	return (req: Request, res: Response, next: NextFunction) => {
		route(req, res).catch(next)
	}
}
