import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import PusherServer from 'pusher'
import { freshIp, signIn } from './accounts.ts'
import { waitForHydration } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'
import { isSameDocument, markDocument, subscriptionCount, watchConsole } from './realtime-support.ts'

// External mode (docs/decisions/018-faults.md): the Pusher-protocol server runs alone (`npm run
// start:realtime`, build/realtime.js) and an app server of this spec's own points at it with
// PUSHER_HOST. The spec stops the realtime server and starts it again; the app keeps working throughout.
// E2E_PORT + 1 … + 3 are the providers' fakes, + 4 … + 9 the multi-process spec's.
const realtimePort = Number(process.env.E2E_PORT) + 10
const appPort = Number(process.env.E2E_PORT) + 11
const appURL = `http://127.0.0.1:${appPort}`
const pusherApp = {
	id: String(crypto.randomInt(100_000, 1_000_000)),
	key: crypto.randomBytes(10).toString('hex'),
	secret: crypto.randomBytes(32).toString('hex'),
}

type Started = { child: ChildProcess; output: () => string }

/** A production build's script in a process of its own, with only `env`; ready once `readyUrl` answers 200. */
async function start(script: string, env: Record<string, string>, readyUrl: string): Promise<Started> {
	const child = spawn(process.execPath, [script], {
		env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env, NODE_ENV: 'production' },
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
	for (let attempt = 0; attempt < 600; attempt++) {
		if (child.exitCode !== null) throw new Error(`${script} stopped: ${output}`)
		const ready = await fetch(readyUrl).then(
			(response) => response.ok,
			() => false,
		)
		if (ready) return { child, output: () => output }
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	throw new Error(`${script} did not become ready: ${output}`)
}

async function stop({ child }: Started) {
	if (child.exitCode !== null) return
	const exited = new Promise((resolve) => child.once('exit', resolve))
	child.kill('SIGTERM')
	await exited
}

const startRealtime = () =>
	start(
		'build/realtime.js',
		{ HOST: '127.0.0.1', PUSHER_PORT: String(realtimePort), PUSHER_APP_ID: pusherApp.id, PUSHER_KEY: pusherApp.key, PUSHER_SECRET: pusherApp.secret },
		`http://127.0.0.1:${realtimePort}/`,
	)

const startApp = (dataDir: string) =>
	start(
		'build/server.js',
		{
			HOST: '127.0.0.1',
			PORT: String(appPort),
			PUBLIC_URL: appURL,
			DATA_DIR: dataDir,
			SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789',
			PUSHER_HOST: '127.0.0.1',
			PUSHER_PORT: String(realtimePort),
			PUSHER_FORCE_TLS: 'false',
			PUSHER_APP_ID: pusherApp.id,
			PUSHER_KEY: pusherApp.key,
			PUSHER_SECRET: pusherApp.secret,
		},
		`${appURL}/readyz`,
	)

/** A visitor of the link page writes, as its form would, always as the same visitor (one conversation). */
async function visitorWrites(request: APIRequestContext, slug: string, visitorToken: string, body: string) {
	const response = await request.post(`/v1/link/${slug}/messages`, { data: { body }, headers: { 'X-Visitor-Token': visitorToken } })
	if (!response.ok()) throw new Error(`visitor failed: ${response.status()} ${await response.text()}`)
}

const thread = (page: Page) => page.getByRole('log')
const composer = (page: Page) => page.locator('#composer-body')

test('the realtime server goes down: the page keeps working under a quiet banner, and catches up without a reload when it is back', async ({
	browser,
	playwright,
}) => {
	test.slow()
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-realtime-down-'))
	let realtime = await startRealtime()
	const app = await startApp(dataDir)
	const sdk = new PusherServer({
		appId: pusherApp.id,
		key: pusherApp.key,
		secret: pusherApp.secret,
		host: '127.0.0.1',
		port: String(realtimePort),
		useTLS: false,
	})
	const request = await playwright.request.newContext({ baseURL: appURL, extraHTTPHeaders: { 'X-Forwarded-For': freshIp() } })
	const context = await browser.newContext({ baseURL: appURL })
	try {
		const link = await linkChannelOf(request, { business: 'Paused Co' })
		const visitorToken = crypto.randomBytes(32).toString('base64url')
		await visitorWrites(request, link.slug, visitorToken, 'Hello, anyone there?')

		await signIn(context, appURL, link.owner.token)
		const page = await context.newPage()
		// The browser's own complaints about the refused WebSocket are expected while the server is down.
		const problems = watchConsole(page)
		await page.goto('/en-us/dashboard/conversations?conversation=1')
		await waitForHydration(page)
		await expect(thread(page)).toContainText('Hello, anyone there?')
		await expect(page.locator('html')).toHaveAttribute('data-realtime', 'connected')
		await expect.poll(() => subscriptionCount(sdk, `private-workspace-${link.workspace.id}`)).toBe(1)
		await expect(page.getByText('Live updates are paused.')).toHaveCount(0)
		await markDocument(page)

		await stop(realtime)
		const banner = page.getByText('Live updates are paused.')
		await expect(banner).toBeVisible()
		await expect(page.getByRole('status').filter({ hasText: 'Paused' })).toBeVisible()

		// The page keeps working: a reply is sent and shows (the form's own answer, not an event).
		await composer(page).fill('We are on it.')
		await composer(page).press('Enter')
		await expect(page.getByRole('article', { name: `Reply by ${link.owner.user.name}` })).toContainText('We are on it.')
		await expect(composer(page)).toHaveValue('')

		// Meanwhile the visitor writes: no event can reach the page.
		await visitorWrites(request, link.slug, visitorToken, 'Thanks, waiting for news')
		await expect(thread(page)).not.toContainText('Thanks, waiting for news')

		// In Arabic, right to left: the same banner on a page opened while the server is down.
		const arabic = await context.newPage()
		const arabicProblems = watchConsole(arabic)
		await arabic.goto('/ar-eg/dashboard')
		await expect(arabic.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(arabic.getByText('التحديثات المباشرة متوقفة مؤقتًا.')).toBeVisible({ timeout: 30_000 })
		await arabic.close()

		realtime = await startRealtime()
		// pusher-js finds the server again by itself; the channels are subscribed again and the page revalidates.
		await expect(page.locator('html')).toHaveAttribute('data-realtime', 'connected', { timeout: 60_000 })
		await expect(banner).toHaveCount(0)
		await expect(thread(page)).toContainText('Thanks, waiting for news')
		expect(await isSameDocument(page)).toBe(true)

		// Live again: the next message arrives as an event.
		await expect.poll(() => subscriptionCount(sdk, `private-workspace-${link.workspace.id}`)).toBe(1)
		await visitorWrites(request, link.slug, visitorToken, 'Got it, thank you')
		await expect(thread(page)).toContainText('Got it, thank you')
		expect(await isSameDocument(page)).toBe(true)

		const refusedSocket = /WebSocket connection to 'wss?:\/\/127\.0\.0\.1:\d+\/app\/.*' failed/
		expect(
			[...problems, ...arabicProblems].filter((problem) => !refusedSocket.test(problem)),
			'console errors',
		).toEqual([])
	} finally {
		await context.close()
		await request.dispose()
		await stop(app)
		await stop(realtime)
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})
