import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { freshIp, registerUser, signIn, uniqueEmail } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// What Playwright's headless Chromium says of itself: isbot() takes it for a bot.
const headlessUserAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'

test.describe('bots get a bare status only instead of the error screen', () => {
	for (const javaScript of [true, false]) {
		test(`a headless browser with a wrong password gets the form with its message (JavaScript ${javaScript ? 'on' : 'off'})`, async ({ browser }) => {
			const context = await browser.newContext({
				userAgent: headlessUserAgent,
				javaScriptEnabled: javaScript,
				extraHTTPHeaders: { 'X-Forwarded-For': freshIp() },
			})
			const page = await context.newPage()
			await page.goto('/en-us/auth/login')
			if (javaScript) await waitForHydration(page)
			await page.getByLabel('E-mail address', { exact: true }).fill(uniqueEmail('nobody'))
			await page.getByLabel('Password', { exact: true }).fill('Wrong-passw0rd!')
			const answer = page.waitForResponse((response) => response.request().method() === 'POST')
			await page.getByRole('button', { name: 'Sign in', exact: true }).click()
			// Without JavaScript the page itself is the 401 answer (with it, the form's data request).
			if (!javaScript) expect((await answer).status()).toBe(401)
			await expect(page.getByRole('alert').filter({ hasText: /e-mail address or password/i })).toBeVisible()
			await expect(page.getByLabel('E-mail address', { exact: true })).toBeVisible()
			await context.close()
		})
	}

	test('the same headless browser on an unknown page gets the plain 404', async ({ request }) => {
		const response = await request.get('/en-us/nowhere', { headers: { 'User-Agent': headlessUserAgent } })
		expect(response.status()).toBe(404)
		expect(response.headers()['content-type']).toMatch(/^text\/plain/)
		expect(await response.text()).toBe('404\n')
	})
})

test.describe('the locale cookie as the specification writes it', () => {
	for (const [form, value, expected] of [
		['plain', 'ar-eg', 'ar-eg'],
		// base64 of the JSON string "fr-x": what an earlier version wrote.
		['encoded', Buffer.from(JSON.stringify('fr-x')).toString('base64'), 'fr-x'],
	] as const) {
		test(`a ${form} i18n_redirected is followed from /`, async ({ browser, baseURL }) => {
			const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Language': 'en-US' } })
			await context.addCookies([{ name: 'i18n_redirected', value, url: baseURL! }])
			const page = await context.newPage()
			await page.goto('/')
			await expect(page).toHaveURL(new RegExp(`/${expected}$`))
			await context.close()
		})
	}
})

/** A form post as a browser behind a proxy sends it, with the Host the proxy chose. */
function postLogin(baseURL: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
	const body = new URLSearchParams({ email: uniqueEmail('proxy'), password: 'Wrong-passw0rd!' }).toString()
	return new Promise((resolve, reject) => {
		const request = http.request(`${baseURL}/en-us/auth/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': freshIp(), ...headers },
		})
		request.on('response', (response) => {
			let text = ''
			response.setEncoding('utf8')
			response.on('data', (chunk: string) => (text += chunk))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
		})
		request.on('error', reject)
		request.end(body)
	})
}

test.describe('a form post whose Origin and Host disagree', () => {
	test('from PUBLIC_URL through a proxy that rewrites Host: the form answers (no 500)', async ({ baseURL }) => {
		const answer = await postLogin(baseURL!, { Origin: baseURL!, Host: 'app.internal:3000' })
		expect(answer.status).toBe(401)
		expect(answer.body).toContain('<form')
	})

	test('from another site: 403, translated', async ({ baseURL }) => {
		const answer = await postLogin(baseURL!, { Origin: 'https://evil.example', Host: new URL(baseURL!).host })
		expect(answer).toEqual({ status: 403, body: 'This form was sent from another site, so it was refused.' })
		// The Origin matches Host, but Remix would compare it with X-Forwarded-Host: refused here first.
		const port = new URL(baseURL!).port
		const spoofed = await postLogin(baseURL!, { Origin: `http://localhost:${port}`, Host: `localhost:${port}`, 'X-Forwarded-Host': 'other.example' })
		expect(spoofed.status).toBe(403)
	})
})

// ---------------------------------------------------------------------------------------------
// `npm start` with no environment at all: the production build, its own DATA_DIR and port.

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer()
		server.on('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo
			server.close(() => resolve(port))
		})
	})
}

type Started = { child: ChildProcess; output: () => string }

async function startServer(dataDir: string, port: number): Promise<Started> {
	// Only what a shell gives a newcomer: no SESSION_SECRET, no DATABASE_URL, no PUBLIC_URL.
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		NODE_ENV: 'production',
		HOST: '127.0.0.1',
		PORT: String(port),
		DATA_DIR: dataDir,
	}
	const child = spawn(process.execPath, ['build/server.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
	let output = ''
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
	for (let attempt = 0; attempt < 300; attempt++) {
		if (child.exitCode !== null) throw new Error(`the server stopped: ${output}`)
		const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
			(response) => response.ok,
			() => false,
		)
		if (ready) return { child, output: () => output }
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	throw new Error(`the server did not become ready: ${output}`)
}

async function stopServer({ child }: Started) {
	const exited = new Promise((resolve) => child.once('exit', resolve))
	child.kill('SIGTERM')
	await exited
}

test('npm start with no environment: a generated secret with one warning, and the browser stays signed in across a restart', async ({
	browser,
	playwright,
}) => {
	test.slow()
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-no-env-'))
	const port = await freePort()
	const baseURL = `http://localhost:${port}`
	let server = await startServer(dataDir, port)
	try {
		expect(server.output()).toContain('SESSION_SECRET is not set')
		expect(server.output()).toContain('Several app processes must share one SESSION_SECRET')
		const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8')

		const request = await playwright.request.newContext({ baseURL })
		const user = await registerUser(request)
		await request.dispose()
		const context = await browser.newContext({ baseURL })
		await signIn(context, baseURL, user.token)
		const page = await context.newPage()
		await page.goto('/en-us/auth/login')
		await expect(page).toHaveURL(/\/en-us\/dashboard\/settings\/workspaces\/setup-workspace$/)

		await stopServer(server)
		server = await startServer(dataDir, port)
		expect(fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8')).toBe(secret)
		await page.goto('/en-us/dashboard/profile')
		await expect(page).toHaveURL(/\/en-us\/dashboard\/profile$/)
		await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0)
		await expect(page.getByRole('main').getByText(user.email, { exact: true })).toBeVisible()
		await context.close()
	} finally {
		await stopServer(server)
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})
