// CI's dependency audit: fails on a high or critical advisory in the production dependencies;
// when the audit endpoint cannot answer (no network, a proxy without it), it says so loudly
// and does not fail, since that says nothing about our dependencies. AUDIT_STRICT=1 fails then too.
import { spawnSync } from 'node:child_process'
import console from 'node:console'
import process from 'node:process'

const run = spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], { encoding: 'utf8', timeout: 120_000 })
let report
try {
	report = JSON.parse(run.stdout)
} catch {
	report = undefined
}
const counts = report?.metadata?.vulnerabilities
if (!counts) {
	const why = report?.message ?? run.error?.message ?? (run.stderr.trim().split('\n').at(-1) || `exit ${run.status}`)
	console.warn(`npm audit: NOT CHECKED, the audit endpoint did not answer (${why})`)
	process.exit(process.env.AUDIT_STRICT === '1' ? 1 : 0)
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0)
console.log(
	`npm audit (production dependencies): ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low`,
)
if (serious > 0) {
	for (const [name, item] of Object.entries(report.vulnerabilities ?? {})) {
		if (item.severity === 'high' || item.severity === 'critical') console.log(`  ${item.severity}: ${name} ${item.range ?? ''}`)
	}
	process.exit(1)
}
