import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, type TestApi } from './harness.ts'
import { createFixtures, type Fixtures } from './route-fixtures.ts'
import { fillPath, pathParams, type ListedRoute } from './route-list.ts'
import { apiRoutes, callers, idsOf, listsHold, paramsOf, routeMatrix, type Caller, type Prepared } from './route-matrix.ts'

// The routes as the router itself has them: a route added without a row in the matrix fails below.
const routes = apiRoutes()

let api: TestApi
let fx: Fixtures
beforeAll(async () => {
	api = await startApi()
	fx = await createFixtures(api)
})
afterAll(() => api.close())

/** A request of the matrix: from an address of its own each time, so that no rate limit of one check counts against the next. */
async function send(route: ListedRoute, prepared: Prepared, caller: Caller, params: Record<string, string>) {
	const user = caller === 'anonymous' ? undefined : caller === 'outsider' ? fx.team.outsider : fx.team[caller]
	const headers: Record<string, string> = {
		'X-Forwarded-For': `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(256)}`,
		...user?.auth,
		...prepared.headers,
	}
	let body: string | undefined
	if (prepared.raw) {
		body = prepared.raw.body
		headers['Content-Type'] = prepared.raw.contentType
	} else if (prepared.body !== undefined) {
		body = JSON.stringify(prepared.body)
		headers['Content-Type'] = 'application/json'
	}
	const url = `${api.url}${fillPath(route.path, params)}${prepared.query ? `?${prepared.query}` : ''}`
	const response = await fetch(url, { method: route.method === 'ALL' ? 'POST' : route.method, headers, body })
	return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' }
}

/** An error answers `{ message, statusCode, details }` with its status; a success of a member holds nothing of the other workspace. */
function checkAnswer(what: string, answer: { status: number; text: string; type: string }, caller: Caller) {
	if (answer.status >= 400) {
		expect(answer.type, what).toMatch(/^application\/json/)
		expect(JSON.parse(answer.text), what).toMatchObject({ message: expect.any(String), statusCode: answer.status })
		return
	}
	if (caller === 'outsider') return
	for (const id of [...idsOf(fx.elsewhere), fx.marker])
		expect(answer.text.toLowerCase(), `${what}: holds ${id} of the other workspace`).not.toContain(id.toLowerCase())
}

describe('the route matrix', () => {
	test('has a row for every route of the router, and no row for a route that is gone', () => {
		const keys = routes.map((route) => route.key)
		expect(keys.length).toBeGreaterThan(80)
		expect(
			keys.filter((key) => !(key in routeMatrix)),
			'routes without a row',
		).toEqual([])
		expect(
			Object.keys(routeMatrix).filter((key) => !keys.includes(key)),
			'rows without a route',
		).toEqual([])
		expect(new Set(keys).size, 'a route listed twice').toBe(keys.length)
	})

	test.for(routes.map((route) => [route.key, route] as const))('%s', async ([key, route]) => {
		const row = routeMatrix[key]
		if (!row) throw new Error(`${key} has no row in tests/api/route-matrix.ts: say who may call it`)
		const here = paramsOf(fx.here, fx.team.otherAgent.user.id)
		const got: Record<string, number> = {}
		for (const caller of callers) {
			const prepared = (await row.prepare?.(fx, caller)) ?? {}
			const answer = await send(route, prepared, caller, { ...here, ...prepared.params })
			got[caller] = answer.status
			checkAnswer(`${key} as ${caller} (${answer.status}): ${answer.text.slice(0, 300)}`, answer, caller)
			const holds = listsHold[key]
			if (holds && answer.status === 200 && caller !== 'outsider') expect(answer.text, `${key} as ${caller} lists this workspace's own`).toContain(holds(fx))
		}
		expect(got, key).toEqual(row.expect)

		// The other workspace's ids, one by one and all together, in a request this workspace's owner may make: 404, never 403, never data.
		const prepared = (await row.prepare?.(fx, 'owner')) ?? {}
		const elsewhere = paramsOf(fx.elsewhere, fx.team.outsider.user.id)
		const swaps: Array<Record<string, string>> = []
		if (row.foreign) swaps.push(await row.foreign(fx))
		else if (row.foreign === undefined && route.path.startsWith('/v1/workspaces/:id')) {
			const names = pathParams(route.path)
			swaps.push({ id: elsewhere.id! })
			const others = names.filter((name) => name !== 'id')
			for (const name of others) swaps.push({ [name]: elsewhere[name]! })
			if (others.length > 1) swaps.push(Object.fromEntries(others.map((name) => [name, elsewhere[name]!])))
		}
		for (const swap of swaps) {
			const answer = await send(route, prepared, 'owner', { ...here, ...prepared.params, ...swap })
			checkAnswer(`${key} naming ${JSON.stringify(swap)} of the other workspace`, answer, 'owner')
			expect(answer.status, `${key} naming ${JSON.stringify(swap)} of the other workspace: ${answer.text.slice(0, 300)}`).toBe(row.foreignStatus ?? 404)
		}
	})
})
