/**
 * The reports' rebuild in business hours (issue 31): the demo workspace (`seedDemo`: a year of
 * 2 000 resolved conversations and their messages on six channels), its roll-ups rebuilt from
 * scratch (`rebuildReports`) `--runs` times each: without business hours (every duration's open
 * time is its calendar time), with the workspace's hours (weekdays 09:00–17:00 and holidays),
 * and with a channel's own hours too. Prints the median and the fastest run of each.
 *
 *   npm run bench:reports -- [--runs 5]
 *
 * Writes bench/results/reports.json.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createDb, ensureDatabase, migrateToLatest } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { seedDemo } from '#api/db/seed/demo.ts'
import { installJobQueue } from '#api/jobs/pool.ts'
import { rebuildReports } from '#api/reports/rollup.ts'
import { defaultBusinessHours } from '#common/business-hours.ts'
import { log, numberOption, resultsDir, table } from './server.ts'

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => log(message) }
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
const runs = numberOption('runs', values.runs, 1, 50)

async function main() {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-bench-reports-'))
	const cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), log: quiet })
	try {
		await ensureDatabase(cluster.url('postgres'), 'bench')
		const db = createDb(cluster.url('bench'), 4)
		await migrateToLatest(db, quiet)
		// The seed queues jobs (the campaign's, the played threads'), which nothing runs here.
		await installJobQueue(cluster.url('bench'))
		const { workspaceId } = await seedDemo(db, () => {})
		const [conversations, messages] = await Promise.all([
			db.selectFrom('conversations').select(db.fn.countAll<string>().as('n')).where('workspaceId', '=', workspaceId).executeTakeFirstOrThrow(),
			db.selectFrom('messages').select(db.fn.countAll<string>().as('n')).where('workspaceId', '=', workspaceId).executeTakeFirstOrThrow(),
		])
		log(`demo: ${conversations.n} conversations, ${messages.n} messages`)
		const hours = { ...defaultBusinessHours, holidays: ['2026-01-01', '2026-05-01', '2026-12-25'] }
		const channel = await db.selectFrom('channels').select('id').where('workspaceId', '=', workspaceId).orderBy('createdAt').executeTakeFirstOrThrow()
		const cases: Array<{ name: string; prepare: () => Promise<unknown> }> = [
			{ name: 'no business hours', prepare: async () => {} },
			{ name: 'workspace hours', prepare: () => db.updateTable('workspaces').set({ businessHours: hours }).where('id', '=', workspaceId).execute() },
			{
				name: 'and a channel’s own',
				prepare: () =>
					db
						.updateTable('channels')
						.set({ businessHours: { days: new Array(7).fill([{ from: '08:00', to: '20:00' }]), holidays: [] } })
						.where('id', '=', channel.id)
						.execute(),
			},
		]
		const results = []
		for (const { name, prepare } of cases) {
			await prepare()
			await rebuildReports(db, workspaceId)
			const times: number[] = []
			for (let run = 0; run < runs; run++) {
				const started = performance.now()
				await rebuildReports(db, workspaceId)
				times.push(performance.now() - started)
			}
			times.sort((a, b) => a - b)
			results.push({ name, medianMs: times[Math.floor(times.length / 2)]!, fastestMs: times[0]! })
		}
		await db.destroy()
		process.stdout.write(
			`${table([['rebuild', 'median', 'fastest'], ...results.map((result) => [result.name, `${result.medianMs.toFixed(0)} ms`, `${result.fastestMs.toFixed(0)} ms`])])}\n`,
		)
		fs.mkdirSync(resultsDir, { recursive: true })
		fs.writeFileSync(path.join(resultsDir, 'reports.json'), `${JSON.stringify({ runs, conversations: Number(conversations.n), results }, null, '\t')}\n`)
	} finally {
		await cluster.stop()
		fs.rmSync(directory, { recursive: true, force: true })
	}
}

await main()
