import { type Router } from 'express'

/** One route an Express router answers: the method in upper case and the path as Express writes it (`/workspaces/:id`). */
export type ListedRoute = { method: string; path: string }

type Key = { name: string | number }
type Layer = {
	route?: { path: string | RegExp | (string | RegExp)[]; methods: Record<string, boolean> }
	handle: { stack?: Layer[] }
	regexp: RegExp & { fast_slash?: boolean }
	keys: Key[]
	name: string
}

/**
 * Every route of `router`, found by walking its stack and the routers mounted in it (any
 * depth), with the mount paths put back together. For tests that hold the routes against a
 * list kept elsewhere (the OpenAPI document, a role matrix).
 */
export function listRoutes(router: Router, prefix = ''): ListedRoute[] {
	const routes: ListedRoute[] = []
	for (const layer of (router as unknown as { stack: Layer[] }).stack) {
		if (layer.route) {
			const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]
			for (const path of paths) {
				if (typeof path !== 'string') throw new Error(`listRoutes: a route path written as a regular expression (${String(path)}) cannot be listed`)
				for (const [method, on] of Object.entries(layer.route.methods)) {
					if (on) routes.push({ method: method === '_all' ? 'ALL' : method.toUpperCase(), path: joinPaths(prefix, path) })
				}
			}
		} else if (layer.name === 'router' && layer.handle.stack) {
			routes.push(...listRoutes(layer.handle as unknown as Router, joinPaths(prefix, mountPath(layer))))
		}
	}
	return routes
}

/** A route's path in OpenAPI's way of writing parameters: `/workspaces/:id` → `/workspaces/{id}`. */
export function openApiPath(expressPath: string): string {
	return expressPath.replace(/:(\w+)/g, '{$1}')
}

/**
 * The path a router was mounted at, read back from the regular expression Express 4 keeps
 * (path-to-regexp 0.1 with `end: false`), since the layer does not keep the string itself.
 */
function mountPath(layer: Layer): string {
	if (layer.regexp.fast_slash) return ''
	const keys = [...layer.keys]
	const source = layer.regexp.source
		.replace(/^\^/, '')
		.replace(/\\\/\?\(\?=\\\/\|\$\)$/, '')
		.replace(/\(\?:\\\/\(\[\^\/\]\+\?\)\)/g, () => `/:${String(keys.shift()?.name)}`)
	if (keys.length > 0 || /[()[\]*+?^$|]/.test(source)) throw new Error(`listRoutes: cannot read a mount path back from ${layer.regexp.source}`)
	return source.replace(/\\(.)/g, '$1')
}

function joinPaths(prefix: string, path: string): string {
	const joined = `${prefix}/${path}`.replace(/\/{2,}/g, '/')
	return joined.length > 1 ? joined.replace(/\/$/, '') : joined
}
