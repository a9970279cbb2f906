import { type Router } from 'express'
import { listRoutes as routesOf, type ListedRoute as Route } from '#api/http/routes.ts'

/** One route as Express will answer it: `GET /v1/workspaces/:id/contacts`; `ALL` for `router.all`. */
export type ListedRoute = Route & { key: string }

/** Every route of `router` and of the routers mounted in it (api/http/routes.ts), each with its key for the expectation tables. */
export function listRoutes(router: Router, prefix: string): ListedRoute[] {
	return routesOf(router, prefix).map((route) => ({ ...route, key: `${route.method} ${route.path}` }))
}

/** `path` with each `:name` replaced by `params[name]`, URL-encoded. */
export function fillPath(path: string, params: Record<string, string>): string {
	return path.replace(/:(\w+)/g, (_, name: string) => {
		const value = params[name]
		if (value === undefined) throw new Error(`no value for :${name} in ${path}`)
		return encodeURIComponent(value)
	})
}

/** The names of a path's parameters, in order. */
export function pathParams(path: string): string[] {
	return [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!)
}
