import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { rootHome } from '#api/db/postgres-user.ts'
import { killChildServers, startServerProcess, type ChildServer } from './child-server.ts'

/**
 * The README's quick start as a new user on a rented server runs it: as root, in a folder other
 * users cannot enter, with no environment. PostgreSQL runs as the postgres user there, which cannot
 * reach the project (issue 25). The built server (`npm start`'s second half), so `npm test` builds
 * before this stage.
 */
const root = path.resolve(import.meta.dirname, '..', '..')
const asRoot = process.getuid?.() === 0
const made: string[] = []

afterAll(async () => {
	killChildServers()
	for (const folder of made) {
		// The cluster's own folder under /var/lib/crm, found through the link that names it (the project is the folder or its crm/).
		for (const link of [path.join(folder, '.data', 'postgres'), path.join(folder, 'crm', '.data', 'postgres')]) {
			if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) fs.rmSync(path.dirname(fs.readlinkSync(link)), { recursive: true, force: true })
		}
		fs.rmSync(folder, { recursive: true, force: true })
	}
})

/** The project as a clone would have it after `npm install && npm run build`: its files, node_modules (hard links: no copy) and the build. */
function copyProject(target: string) {
	const skipped = new Set(['.git', 'node_modules', '.data', 'build', 'test-results', 'playwright-report', '.cache'])
	fs.cpSync(root, target, { recursive: true, filter: (source) => !skipped.has(path.relative(root, source).split(path.sep)[0] ?? '') })
	execFileSync('cp', ['-al', path.join(root, 'node_modules'), path.join(target, 'node_modules')])
	fs.cpSync(path.join(root, 'build'), path.join(target, 'build'), { recursive: true })
}

/** `npm run start:production` (what `npm start` runs after its build) in `project`, with no environment of ours. */
const startBuilt = (project: string) => startServerProcess(['build/server.js'], project, { NODE_ENV: 'production' })

async function stop(server: ChildServer) {
	process.kill(server.child.pid!, 'SIGTERM')
	expect(await server.exited).toEqual({ code: 0, signal: null })
}

async function signIn(server: ChildServer, email: string, password: string) {
	const response = await fetch(`${server.url}/v1/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email, password }),
	})
	expect(response.status, await response.clone().text()).toBe(200)
	return ((await response.json()) as { accessToken: string }).accessToken
}

/** `node …args` in `cwd` (`npm run db:seed` in the project), with `env` and nothing else of ours but PATH and HOME. */
function runIn(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; output: string }> {
	const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
	let output = ''
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
	return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

const modeOf = (folder: string) => fs.statSync(folder).mode & 0o777

describe.runIf(asRoot)('as root, in a folder other users cannot enter', () => {
	test('npm start works under a parent of mode 700, the seed runs beside it, and a restart keeps the data', { timeout: 180_000 }, async () => {
		expect(fs.existsSync(path.join(root, 'build', 'server.js')), 'the production build (npm run build; npm test builds before this stage)').toBe(true)
		const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-root-'))
		made.push(closed)
		expect(modeOf(closed)).toBe(0o700)
		const project = path.join(closed, 'crm')
		copyProject(project)

		const first = await startBuilt(project)
		const log = first.output.join('\n')
		expect(log).toContain(`running a copy of PostgreSQL`)
		expect(log).toMatch(new RegExp(`keeps its data in ${rootHome}/[0-9a-f]{16}/postgres \\(linked from ${project}/.data/postgres\\)`))

		const seeded = await runIn(project, { NODE_ENV: 'development' }, ['--import', 'tsx', 'api/db/seed.ts'])
		expect(seeded.output).toContain('using the embedded PostgreSQL already running')
		expect(seeded.code, seeded.output).toBe(0)
		await signIn(first, 'demo@example.com', 'Demo-password-1')
		await stop(first)

		const second = await startBuilt(project)
		expect(second.output.join('\n')).toContain(`the embedded PostgreSQL's data is in ${rootHome}/`)
		await signIn(second, 'julien@example.com', 'Demo-password-1')
		await stop(second)

		// Nothing of the project's folders was opened to other users; the binaries were copied once.
		expect(modeOf(closed)).toBe(0o700)
		const home = path.dirname(fs.readlinkSync(path.join(project, '.data', 'postgres')))
		expect(fs.readFileSync(path.join(home, 'DATA_DIR'), 'utf8').trim()).toBe(fs.realpathSync(path.join(project, '.data')))
		expect(fs.readdirSync(home).sort()).toEqual(['DATA_DIR', 'postgres', expect.stringMatching(/^postgresql-/)])
	})

	test('npm start works in a project folder of mode 700, and an account made there signs in after a restart', { timeout: 120_000 }, async () => {
		const project = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-root-'))
		made.push(project)
		copyProject(project)
		fs.chmodSync(project, 0o700)

		const first = await startBuilt(project)
		const account = { name: 'Root Start', email: 'root-start@example.com', password: 'Root-start-password-1' }
		const registered = await fetch(`${first.url}/v1/auth/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(account),
		})
		expect(registered.status, await registered.clone().text()).toBe(201)
		await stop(first)

		const second = await startBuilt(project)
		await signIn(second, account.email, account.password)
		await stop(second)
		expect(modeOf(project)).toBe(0o700)
	})

	test('a cluster already inside a folder the postgres user cannot reach stops the start with one line and code 1', { timeout: 60_000 }, async () => {
		const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-root-'))
		made.push(closed)
		fs.mkdirSync(path.join(closed, 'data', 'postgres'), { recursive: true })
		fs.writeFileSync(path.join(closed, 'data', 'postgres', 'PG_VERSION'), '18\n')
		const run = await runIn(root, { NODE_ENV: 'development', DATA_DIR: path.join(closed, 'data') }, ['--import', 'tsx', 'api/db/migrate-cli.ts'])
		expect(run.code).toBe(1)
		expect(run.output.trim().split('\n')).toEqual([
			`The postgres user cannot reach the embedded PostgreSQL's data in ${closed}/data/postgres (a folder above it is closed to other users): move that folder where it can, set DATA_DIR=… to one it can reach, or DATABASE_URL=… to use your own PostgreSQL.`,
		])
	})
})

describe('a data folder that cannot be used', () => {
	test('stops the server with one line naming the folder and the fix, and code 1', { timeout: 60_000 }, async () => {
		const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crm-data-')), 'a-file')
		made.push(path.dirname(file))
		fs.writeFileSync(file, '')
		const run = await runIn(root, { DATA_DIR: path.join(file, 'data'), NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0' }, [
			'--import',
			'tsx',
			'server.ts',
		])
		expect(run.code).toBe(1)
		// The secrets' warnings come first (DATA_DIR cannot hold them either); then the one line, no stack.
		expect(run.output).not.toMatch(/\n\s+at /)
		expect(run.output.trim().split('\n').at(-1)).toBe(
			`The data folder ${file}/data cannot be used (ENOTDIR: not a directory, mkdir '${file}/data'): set DATA_DIR=… to a folder this process can write, or DATABASE_URL=… to use your own PostgreSQL.`,
		)
	})
})
