/* eslint-disable no-console -- a command-line runner prints its progress */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { browserWays, checkBrowser } from './browser.ts'

/**
 * `npm test`: every check, in order, each stage's output streamed; stops at the first failure
 * and prints a summary either way. Stages can be skipped with SKIP=lint,e2e (for local work).
 * The stages of a group run at once, each printed whole when it ends: the type check, the lint and
 * the format check are one process each, so on two cores they take about the time of the longest.
 */
type Stage = { name: string; command: string; args: string[]; prepare?: () => Promise<boolean> }

const stages: Array<Stage | Stage[]> = [
	// Two groups: the five at once took longer than one group after the other (decision 023).
	[
		{ name: 'typecheck', command: 'npx', args: ['tsc', '--noEmit'] },
		{ name: 'lint', command: 'npx', args: ['eslint', '.', '--max-warnings=0'] },
		{ name: 'format', command: 'npm', args: ['run', '--silent', 'format:check'] },
	],
	[
		{ name: 'unit', command: 'npx', args: ['vitest', 'run', '--project', 'unit'] },
		// Before the API tests: the quick start's test starts the built server as a new user would.
		{ name: 'build', command: 'npm', args: ['run', 'build'] },
	],
	// The API tests run one file after another on one database; those that start servers of their
	// own mostly wait for them, so they run beside the others, in a process of their own.
	[
		{ name: 'api', command: 'npx', args: ['vitest', 'run', '--project', 'api'] },
		{ name: 'api-servers', command: 'npx', args: ['vitest', 'run', '--project', 'api-servers'] },
	],
	{ name: 'e2e', command: 'npx', args: ['playwright', 'test'], prepare: ensureBrowser },
]

const skipped = new Set(
	(process.env.SKIP ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean),
)

/** Runs a command to its end; `captured` keeps its output (both streams, in order) instead of streaming it. */
function run(stage: Pick<Stage, 'command' | 'args'>, captured?: Buffer[]): Promise<number> {
	return new Promise((resolve) => {
		const child = spawn(stage.command, stage.args, {
			stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit',
			env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
		})
		child.stdout?.on('data', (chunk: Buffer) => captured?.push(chunk))
		child.stderr?.on('data', (chunk: Buffer) => captured?.push(chunk))
		child.on('error', () => resolve(127))
		child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
	})
}

/**
 * The browser tests need a Chromium: with none (no CHROMIUM_PATH, no Debian Chromium, no
 * Playwright's own), Playwright's own is installed, with its system libraries where apt can be used.
 */
async function ensureBrowser(): Promise<boolean> {
	const { chromium } = await import('@playwright/test')
	const found = checkBrowser(chromium.executablePath())
	if (found.ready) return true
	if (found.reason === 'missing-chromium-path') {
		console.log(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} names no file. ${browserWays}`)
		return false
	}
	const withDeps = process.platform === 'linux' && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')
	const args = ['playwright', 'install', ...(withDeps ? ['--with-deps'] : []), 'chromium']
	console.log(`No Chromium for the browser tests: installing Playwright's own (npx ${args.join(' ')}).`)
	if ((await run({ command: 'npx', args })) === 0 && checkBrowser(chromium.executablePath()).ready) return true
	console.log(`Playwright's Chromium could not be installed. ${browserWays}`)
	return false
}

type Result = { name: string; status: 'passed' | 'failed' | 'skipped'; seconds: number; output?: Buffer }
const heading = (stage: Stage) => `\n━━ ${stage.name}: ${stage.command} ${stage.args.join(' ')}`

/** One stage, streamed, or (`together`) captured, its output kept for printing once the group ends. */
async function runStage(stage: Stage, together: boolean): Promise<Result> {
	if (!together) console.log(heading(stage))
	const captured: Buffer[] | undefined = together ? [] : undefined
	const started = performance.now()
	const code = (await (stage.prepare?.() ?? true)) ? await run(stage, captured) : 1
	const seconds = (performance.now() - started) / 1000
	return { name: stage.name, status: code === 0 ? 'passed' : 'failed', seconds, output: captured && Buffer.concat(captured) }
}

const results: Result[] = []
let failed = false
for (const entry of stages) {
	const group = Array.isArray(entry) ? entry : [entry]
	const running = failed ? [] : group.filter((stage) => !skipped.has(stage.name))
	const ran = await Promise.all(running.map((stage) => runStage(stage, running.length > 1)))
	// A group's failed stages print last, so the end of a log (all a CI page may show) has the failure.
	for (const result of [...ran].sort((a, b) => Number(a.status === 'failed') - Number(b.status === 'failed'))) {
		if (!result.output) continue
		console.log(heading(group.find((stage) => stage.name === result.name) as Stage))
		process.stdout.write(result.output)
	}
	for (const stage of group) results.push(ran.find((result) => result.name === stage.name) ?? { name: stage.name, status: 'skipped', seconds: 0 })
	if (ran.some((result) => result.status === 'failed')) failed = true
}

console.log('\n━━ summary')
for (const result of results) console.log(`${result.status.padEnd(8)} ${result.name.padEnd(10)} ${result.seconds.toFixed(1)} s`)
const count = (status: string) => results.filter((result) => result.status === status).length
console.log(`stages: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`)
process.exit(failed ? 1 : 0)
