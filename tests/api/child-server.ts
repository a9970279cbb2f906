import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import net, { type AddressInfo } from 'node:net'
import path from 'node:path'
import readline from 'node:readline'
import { inject } from 'vitest'
import { dropDatabase, ensureDatabase } from '#api/db/database.ts'

/**
 * The real server as a child process (`server.ts` under tsx, as `npm run dev` runs it), in a
 * process group of its own, for the tests that stop it or its database from outside: the fault
 * tests (faults-*.test.ts). Ready once it prints its "listening" line.
 */
export type ChildServer = {
	url: string
	child: ChildProcess
	/** Resolves with how it exited. */
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
	/** Its last 400 lines of output, for the failure messages. */
	output: string[]
	alive: () => boolean
}

const root = path.resolve(import.meta.dirname, '..', '..')
const children = new Set<ChildProcess>()

export async function startChildServer(env: { DATA_DIR: string; DATABASE_URL: string } & Record<string, string>): Promise<ChildServer> {
	return startServerProcess(['--import', 'tsx', 'server.ts'], root, {
		NODE_ENV: 'development',
		PUBLIC_URL: 'http://crm.test',
		LOG_LEVEL: 'info',
		SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
		// Vite's HMR socket: any free port, so that a developer's `npm run dev` does not clash.
		HMR_PORT: '0',
		...env,
	})
}

/**
 * `node …args` in `cwd` as a server, on loopback and a free port, with `env` and nothing else of
 * this process's environment but PATH and HOME (as a new user's shell would have).
 */
export async function startServerProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildServer> {
	const child = spawn(process.execPath, args, {
		cwd,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		// Not PORT 0: the job runner's realtime publishes go to PORT as configured.
		env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(await freePort()), ...env },
	})
	children.add(child)
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	)
	void exited.then(() => children.delete(child))
	const output: string[] = []
	const url = await new Promise<string>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s:\n${output.join('\n')}`)), 60_000)
		const keep = (line: string) => {
			output.push(line)
			if (output.length > 400) output.shift()
			const match = /CRM listening on (http:\/\/\S+)/.exec(line)
			if (match?.[1]) {
				clearTimeout(timer)
				resolve(match[1])
			}
		}
		readline.createInterface({ input: child.stdout! }).on('line', keep)
		readline.createInterface({ input: child.stderr! }).on('line', keep)
		void exited.then(() => reject(new Error(`the server exited before it listened:\n${output.join('\n')}`)))
	})
	return { url, child, exited, output, alive: () => child.exitCode === null && child.signalCode === null }
}

/** Whatever a test left running: the whole group, at once. */
export function killChildServers() {
	for (const child of children) {
		try {
			process.kill(-child.pid!, 'SIGKILL')
		} catch {
			// Already gone.
		}
	}
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer()
		probe.on('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as AddressInfo
			probe.close(() => resolve(port))
		})
	})
}

/** Polls `check` every 50 ms until it is true; fails after `ms` with `what`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms: number) {
	for (const deadline = Date.now() + ms; ;) {
		if (await check()) return
		if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
}

/** A database of the test file's own beside the run's (`name` its suffix), for a child server to migrate; `drop` removes it. */
export async function ownDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
	const url = new URL(inject('databaseUrl'))
	const databaseName = `${url.pathname.slice(1)}_${name}`
	url.pathname = '/postgres'
	const adminUrl = url.toString()
	await ensureDatabase(adminUrl, databaseName)
	url.pathname = `/${databaseName}`
	return { url: url.toString(), drop: () => dropDatabase(adminUrl, databaseName) }
}
