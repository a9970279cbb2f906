import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureDatabase } from '#api/db/database.ts'
import { type EmbeddedCluster, startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'

/** A process of the topology: its address, its output so far (for a failure's message), how to stop or kill it. */
export type Started = { url: string; output: () => string; stop: () => Promise<void>; kill: () => Promise<void> }

const quiet = { info: () => {}, debug: () => {}, error: () => {} }

/** One PostgreSQL for every app process: the embedded one, in a directory of its own, with a `crm` database. */
export async function startPostgres(port: number): Promise<{ cluster: EmbeddedCluster; databaseUrl: string; dataDir: string }> {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-multi-pg-'))
	const cluster = await startEmbeddedPostgres({ directory: path.join(dataDir, 'postgres'), port, log: quiet })
	await ensureDatabase(cluster.url('postgres'), 'crm')
	return { cluster, databaseUrl: cluster.url('crm'), dataDir }
}

/** The Pusher app every process shares: the standalone server's, and the one the app processes publish and sign with. */
export function sharedRealtimeApp() {
	return {
		PUSHER_APP_ID: String(crypto.randomInt(100_000, 1_000_000)),
		PUSHER_KEY: crypto.randomBytes(10).toString('hex'),
		PUSHER_SECRET: crypto.randomBytes(32).toString('hex'),
	}
}

function exited(child: ChildProcess): Promise<void> {
	return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))
}

/**
 * Starts `node {script}` of the production build with `env` (and PATH), and resolves once `url` answers
 * `readyPath` with 200; rejects with the process's output if it exits first.
 */
export async function startNode(script: string, url: string, env: Record<string, string>, readyPath = '/readyz'): Promise<Started> {
	const child = spawn(process.execPath, [script], { env: { NODE_ENV: 'production', PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
	let output = ''
	child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)))
	child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)))
	const gone = exited(child)
	let ready = false
	void gone.then(() => {
		if (!ready) output += `\n(${script} exited with ${child.exitCode ?? child.signalCode})`
	})
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${script} at ${url} stopped before it was ready:\n${output}`)
		const answered = await fetch(`${url}${readyPath}`).then(
			(response) => response.ok,
			() => false,
		)
		if (answered) break
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	ready = true
	return {
		url,
		output: () => output,
		stop: async () => {
			child.kill('SIGTERM')
			await gone
		},
		kill: async () => {
			child.kill('SIGKILL')
			await gone
		},
	}
}
