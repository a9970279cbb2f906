import compression from 'compression'
import express from 'express'
import inject from 'light-my-request'
import { describe, expect, test } from 'vitest'
import { privatePages } from './private-pages.ts'

const app = express()
app.use(compression())
app.use(privatePages())
// A page, a page whose route said its own caching, an attachment (a file the browser may keep), an export, a redirect, Remix's route manifest.
app.get('/:lang/page', (_req, res) => res.type('html').send('<p>yours</p>'))
app.get('/:lang/dashboard.data', (_req, res) => res.set('Cache-Control', 'public, max-age=60').type('text/x-script').send('[]'))
app.get('/:lang/dashboard/attachments/1', (_req, res) => res.set('Cache-Control', 'private, max-age=3600').type('png').send('png'))
app.get('/:lang/dashboard/contacts/export', (_req, res) => res.set('Cache-Control', 'no-store').type('csv').send('a,b'))
app.get('/:lang/dashboard', (_req, res) => res.redirect('/en-us/auth/login'))
app.get('/__manifest', (_req, res) => res.set('Cache-Control', 'public, max-age=31536000, immutable').json({}))

const signedIn = { cookie: 'crm-theme=abc; crm-token=eyJ0b2tlbiI6IngifQ%3D%3D' }
const cacheControl = async (url: string, headers: Record<string, string> = {}) => (await inject(app, { method: 'GET', url, headers })).headers['cache-control']

describe('a signed-in visitor’s answers', () => {
	test('a page, as HTML or as its data, is private and never stored, whatever its route said', async () => {
		expect(await cacheControl('/en-us/page', signedIn)).toBe('private, no-store')
		expect(await cacheControl('/en-us/dashboard.data', signedIn)).toBe('private, no-store')
		expect(await cacheControl('/en-us/dashboard.data')).toBe('private, no-store')
	})

	test('a dashboard page is so without a session cookie too (its redirect to the login page)', async () => {
		expect(await cacheControl('/ar-eg/dashboard')).toBe('private, no-store')
	})

	test('a file keeps its private caching, an export its no-store', async () => {
		expect(await cacheControl('/en-us/dashboard/attachments/1', signedIn)).toBe('private, max-age=3600')
		expect(await cacheControl('/en-us/dashboard/contacts/export', signedIn)).toBe('no-store')
	})

	test('Remix’s route manifest, the same for everyone, keeps its caching', async () => {
		expect(await cacheControl('/__manifest?p=%2Fen-us%2Fdashboard&version=1', signedIn)).toBe('public, max-age=31536000, immutable')
	})

	test('an anonymous page is left as it is, a cookie that is not the session too', async () => {
		expect(await cacheControl('/en-us/page')).toBeUndefined()
		expect(await cacheControl('/en-us/page', { cookie: 'crm-theme=abc; crm-token=' })).toBeUndefined()
	})
})
