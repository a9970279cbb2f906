import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type TestProject } from 'vitest/node'
import { createDb, dropDatabase, ensureDatabase, migrateToLatest } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { installJobQueue } from '#api/jobs/pool.ts'

declare module 'vitest' {
	export interface ProvidedContext {
		databaseUrl: string
	}
}

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

/**
 * A fresh database for this run: on DATABASE_URL's server when set, else on an embedded
 * PostgreSQL in a temporary directory. Dropped (and the cluster stopped) at the end.
 */
export default async function setup(project: TestProject) {
	let adminUrl: string
	let stopCluster = async () => {}
	let directory: string | undefined
	if (process.env.DATABASE_URL) {
		const url = new URL(process.env.DATABASE_URL)
		url.pathname = '/postgres'
		adminUrl = url.toString()
	} else {
		directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-api-test-'))
		const cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), log: quiet })
		adminUrl = cluster.url('postgres')
		stopCluster = cluster.stop
	}
	const name = `crm_test_${process.pid}_${Date.now().toString(36)}`
	await ensureDatabase(adminUrl, name)
	const databaseUrl = new URL(adminUrl)
	databaseUrl.pathname = `/${name}`
	const db = createDb(databaseUrl.toString(), 2)
	await migrateToLatest(db, quiet)
	await db.destroy()
	await installJobQueue(databaseUrl.toString())
	project.provide('databaseUrl', databaseUrl.toString())

	return async () => {
		await dropDatabase(adminUrl, name)
		await stopCluster()
		if (directory) fs.rmSync(directory, { recursive: true, force: true })
	}
}
