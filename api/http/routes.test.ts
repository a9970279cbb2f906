import { Router } from 'express'
import { describe, expect, test } from 'vitest'
import { listRoutes, openApiPath } from './routes.ts'

describe('listRoutes', () => {
	test('walks mounted routers at any depth and puts their paths back together', () => {
		const inner = Router({ mergeParams: true })
		inner.get('/', () => {})
		inner.patch('/:labelId', () => {})
		inner.delete('/:labelId', () => {})
		const beside = Router()
		beside.post('/leave', () => {})
		const workspaces = Router()
		workspaces.use('/:id/labels', inner)
		workspaces.use(beside)
		workspaces.put('/switch', () => {})
		const api = Router()
		api.use((_req, _res, next) => next())
		api.use('/workspaces', workspaces)
		api.use(
			'/link-pages.v2',
			Router().get('/:slug', () => {}),
		)

		expect(listRoutes(api)).toEqual([
			{ method: 'GET', path: '/workspaces/:id/labels' },
			{ method: 'PATCH', path: '/workspaces/:id/labels/:labelId' },
			{ method: 'DELETE', path: '/workspaces/:id/labels/:labelId' },
			{ method: 'POST', path: '/workspaces/leave' },
			{ method: 'PUT', path: '/workspaces/switch' },
			{ method: 'GET', path: '/link-pages.v2/:slug' },
		])
	})

	test('writes parameters as OpenAPI does', () => {
		expect(openApiPath('/workspaces/:id/conversations/:number/messages/:messageId/retry')).toBe(
			'/workspaces/{id}/conversations/{number}/messages/{messageId}/retry',
		)
	})
})
