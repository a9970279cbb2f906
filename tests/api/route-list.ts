import { type Router } from 'express'

/** One route as Express will answer it: `GET /v1/workspaces/:id/contacts`; `ALL` for `router.all`. */
export type ListedRoute = { method: string; path: string; key: string }

type Layer = {
	route?: { path: unknown; methods: Record<string, boolean> }
	handle: { stack?: Layer[] }
	regexp: RegExp
	keys: Array<{ name: string | number }>
}

/** The path a mounted router answers under, read back from its layer's regexp (Express 4 keeps no string of it). */
export function mountPath(layer: Pick<Layer, 'regexp' | 'keys'>): string {
	let key = 0
	const path = layer.regexp.source
		.replace(/^\^/, '')
		.replace(/\\\/\?\(\?=\\\/\|\$\)$/, '')
		.replace(/\(\?:\\\/\(\[\^\\?\/\]\+\?\)\)/g, () => `/:${String(layer.keys[key++]?.name)}`)
		.replace(/\\\//g, '/')
	if (/[\\()[\]?*+^$|]/.test(path) || key !== layer.keys.length) throw new Error(`cannot read the mount path of ${String(layer.regexp)}`)
	return path
}

function joined(prefix: string, path: string): string {
	const whole = `${prefix}${path}`.replace(/\/+/g, '/')
	return whole.length > 1 ? whole.replace(/\/$/, '') : whole
}

/** Every route of `router` and of the routers mounted in it, at any depth, with their full path under `prefix`. */
export function listRoutes(router: Router, prefix: string): ListedRoute[] {
	const routes: ListedRoute[] = []
	const walk = (stack: Layer[], base: string) => {
		for (const layer of stack) {
			if (layer.route) {
				if (typeof layer.route.path !== 'string') throw new Error(`a route under ${base} has a path that is not a string`)
				const path = joined(base, layer.route.path)
				for (const method of Object.keys(layer.route.methods)) {
					const name = method === '_all' ? 'ALL' : method.toUpperCase()
					routes.push({ method: name, path, key: `${name} ${path}` })
				}
			} else if (layer.handle.stack) {
				walk(layer.handle.stack, joined(base, mountPath(layer)))
			}
		}
	}
	walk((router as unknown as { stack: Layer[] }).stack, prefix)
	return routes
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
