import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { chromiumPath } from './scripts/browser.ts'

// Chosen once in the main process; workers inherit the environment, so they agree on it.
// Below Linux's ephemeral range (32768 and up): there a port this run listens on later (the fakes,
// the realtime server of realtime-down.spec.ts) may already be the local end of an outgoing
// connection, and listening fails with EADDRINUSE, as CI once saw.
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 10000))
if (!process.env.E2E_DATA_DIR) {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-e2e-'))
	process.env.E2E_DATA_DIR = dataDir
	// Its database (tens of megabytes) goes when the run ends, after the server has stopped (gracefulShutdown below).
	process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }))
}
const port = Number(process.env.E2E_PORT)
export const telegramFakePort = port + 1
export const whatsappFakePort = port + 2
export const metaFakePort = port + 3
const baseURL = `http://127.0.0.1:${port}`

const providerSpecs = /(channels-messaging|campaigns)\.spec\.ts$/
// The providers' specs take three minutes: the worker that runs them then runs these, which would otherwise wait
// their turn after twenty minutes of the others (the whole run had grown past 30 minutes): issue 30's screens,
// the specs that mostly wait (for a realtime server to stop and come back, for live updates), the forms' fuzzing,
// and, once the fuzzing took half its time (decision 024), the inbox's findings and the two-step sign-in.
const besideProviderSpecs =
	/(availability|inbox-teams|settings-teams|realtime-down|live-inbox|realtime|realtime-team|form-fuzz|inbox-findings|two-step)\.spec\.ts$/
// Half the cores run the other specs; one more worker runs the providers' specs, then those above, beside them from the start.
const half = Math.max(1, Math.floor(os.cpus().length / 2))

const asRoot = process.getuid?.() === 0

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	// The server and the browsers are CPU-bound: on CI's two cores, two workers for every spec took longer
	// than one (1 249 s against 1 139 s) and timed tests out. Half the cores run the specs, and one more the
	// providers' specs, whose scheduled campaign waits about a minute for its time, doing nothing.
	workers: half + 1,
	retries: 0,
	reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
	// Room for a test that shares the machine with the providers' specs.
	timeout: 60_000,
	// Live updates (a realtime event, then a throttled revalidation) can take seconds on a loaded 2-core machine.
	expect: { timeout: 10_000 },
	use: {
		baseURL,
		trace: 'retain-on-failure',
		launchOptions: {
			executablePath: chromiumPath(),
			args: asRoot
				? ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
				: [],
		},
	},
	projects: [
		// The specs that start the providers' fakes on the fixed ports above take turns (one worker): never two at once.
		{ name: 'providers', use: { ...devices['Desktop Chrome'] }, testMatch: [providerSpecs, besideProviderSpecs], workers: 1 },
		{ name: 'chromium', use: { ...devices['Desktop Chrome'] }, testIgnore: [providerSpecs, besideProviderSpecs], workers: half },
	],
	// The real production build on loopback, with its own embedded database; stopped after the run.
	webServer: {
		command: 'node build/server.js',
		url: `${baseURL}/readyz`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'ignore',
		stderr: 'pipe',
		gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
		env: {
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			PUBLIC_URL: baseURL,
			DATA_DIR: process.env.E2E_DATA_DIR,
			SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789',
			LOG_LEVEL: 'warn',
			// The providers' fakes that tests/e2e/channels-messaging.spec.ts starts on these ports.
			TELEGRAM_API_URL: `http://127.0.0.1:${telegramFakePort}`,
			WHATSAPP_API_URL: `http://127.0.0.1:${whatsappFakePort}`,
			META_GRAPH_URL: `http://127.0.0.1:${metaFakePort}`,
		},
	},
})
