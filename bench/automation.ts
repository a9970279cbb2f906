/**
 * Automation rules' cost (issue 31): a chat-link customer's message (POST /v1/link/{slug}/messages,
 * the real /v1 router on loopback, an embedded PostgreSQL, a job runner of every task) from its
 * arrival to stored (the POST answered: the message, its conversation and, with rules, the rule job
 * are committed) and to rules done (the `run-automation` jobs of the message finished), p50 and p99,
 * in one run: on a workspace with no rule, then on one with 50 enabled rules on `message.received`,
 * each checking words, a contact attribute and the message count (two match and label the conversation).
 *
 *   npm run bench:automation -- [--messages 200] [--concurrency 4]
 *
 * Writes bench/results/automation.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { type DB } from '#api/db/database.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobHandlers } from '#api/jobs/queue.ts'
import { log, numberOption, resultsDir, table } from './server.ts'
import { postLinkMessage, quiet, seedLinkWorkspace, withInProcessApi } from './in-process.ts'

const { values } = parseArgs({ options: { messages: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '4' } } })
const messages = numberOption('messages', values.messages, 10, 10_000)
const concurrency = numberOption('concurrency', values.concurrency, 1, 64)

/** When each message's rules were done, by message id. */
const rulesDone = new Map<string, number>()

async function seedWorkspace(db: DB, rules: number) {
	const { workspaceId, slug } = await seedLinkWorkspace(db, `Bench ${rules}`)
	const label = await db.insertInto('labels').values({ workspaceId, title: 'matched', color: '#aa5500' }).returning('id').executeTakeFirstOrThrow()
	for (let index = 0; index < rules; index++) {
		// Two rules of fifty match every message; the others fail on their words, checked after the rest.
		const matching = index % 25 === 0
		await db
			.insertInto('automationRules')
			.values({
				workspaceId,
				name: `Rule ${index}`,
				event: 'message.received',
				position: index,
				conditions: JSON.stringify([
					{ kind: 'messageCount', op: 'atLeast', value: 1 },
					{ kind: 'contactAttribute', attribute: 'name', op: 'contains', value: 'visitor' },
					{ kind: 'status', op: 'is', statuses: ['open'] },
					{ kind: 'messageContains', op: 'any', words: matching ? ['order'] : [`refund${index}`, `annulé${index}`, `استرداد${index}`] },
				]),
				actions: JSON.stringify([{ kind: 'addLabels', labelIds: [label.id] }]),
			})
			.execute()
	}
	return { slug }
}

async function measure(url: string, slug: string, rules: number) {
	const stored: number[] = []
	const done: number[] = []
	let next = 0
	async function customer() {
		while (next < messages) {
			const index = next++
			const started = performance.now()
			const messageId = await postLinkMessage(url, slug, { net: rules, index })
			const arrived = performance.now()
			stored.push(arrived - started)
			if (rules === 0) {
				done.push(arrived - started)
				continue
			}
			for (let waited = 0; !rulesDone.has(messageId); waited++) {
				if (waited > 30_000) throw new Error(`the rules of message ${messageId} never ran`)
				await new Promise((resolve) => setTimeout(resolve, 1))
			}
			done.push(rulesDone.get(messageId)! - started)
		}
	}
	await Promise.all(Array.from({ length: concurrency }, customer))
	const at = (list: number[], p: number) => {
		const sorted = [...list].sort((a, b) => a - b)
		return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
	}
	return { rules, storedP50: at(stored, 50), storedP99: at(stored, 99), doneP50: at(done, 50), doneP99: at(done, 99) }
}

async function main() {
	await withInProcessApi('automation', async ({ db, databaseUrl, config, url }) => {
		const handlers: JobHandlers = {
			...jobHandlers,
			'run-automation': async (payload, helpers) => {
				await jobHandlers['run-automation'](payload, helpers)
				if (payload.messageId) rulesDone.set(payload.messageId, performance.now())
			},
		}
		const runner = await startJobRunner({ db, databaseUrl, handlers, log: quiet, config, concurrency: 4 })
		const results = []
		for (const rules of [0, 50]) {
			const { slug } = await seedWorkspace(db, rules)
			// A few messages first, so that both runs start warm.
			await measure(url, slug, rules)
			results.push(await measure(url, slug, rules))
			log(`${rules} rules: done`)
		}
		const labelled = await db.selectFrom('conversationLabels').select(db.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
		const runs = await db
			.selectFrom('automationRuns')
			.select(['outcome', db.fn.countAll<number>().as('count')])
			.groupBy('outcome')
			.execute()
		log(`rule runs (the matching rules'): ${runs.map((row) => `${row.count} ${row.outcome}`).join(', ')}`)
		await runner.stop()
		const ms = (value: number) => `${value.toFixed(1)} ms`
		process.stdout.write(
			`${table([
				['rules', 'stored p50', 'stored p99', 'rules done p50', 'rules done p99'],
				...results.map((result) => [String(result.rules), ms(result.storedP50), ms(result.storedP99), ms(result.doneP50), ms(result.doneP99)]),
			])}\n`,
		)
		log(`${messages} messages a run, ${concurrency} customers at once; conversations labelled by the matching rules: ${labelled.count}`)
		fs.mkdirSync(resultsDir, { recursive: true })
		fs.writeFileSync(path.join(resultsDir, 'automation.json'), `${JSON.stringify({ messages, concurrency, results }, null, '\t')}\n`)
	})
}

await main()
