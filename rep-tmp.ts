import { sql } from 'kysely'
import { createDb } from '#api/db/database.ts'
const db = createDb(process.env.DATABASE_URL!, 2)
const E = 'ffffffff-ffff-ffff-ffff-ffffffffffff', N = '00000000-0000-0000-0000-000000000000', W = '8a84fb9a-ff61-4ff2-8a18-2009ae9ef6b8'
const sums = (c: string, p: string, n: number) => sql.raw(Array.from({ length: n }, (_, i) => `coalesce(sum(${c}[${i + 1}]), 0)::int as "${p}${i}"`).join(', '))
const prev = sql`day < ${sql.lit('2025-11-25')}::date`
const counts = sql`sum(opened), sum(resolved), sum(messages_in), sum(messages_out)`
const qs = {
 totals: sql`select ${prev}, grouping(day, extract(isodow from day)), to_char(day,'YYYY-MM-DD'), ${counts}, ${sums('first_response_buckets','f',27)}, ${sums('resolution_buckets','r',27)}, ${sums('incoming_hours','h',24)} from report_days where workspace_id = ${W} and label_id = ${N} and day between '2024-11-25' and '2026-11-24' and channel_id = ${E} and agent_id = ${E} group by grouping sets ((${prev}), (${prev}, day), (${prev}, extract(isodow from day)))`,
 channels: sql`select channel_id, ${counts} from report_days where workspace_id = ${W} and label_id = ${N} and day between '2025-11-25' and '2026-11-24' and channel_id <> ${E} and agent_id = ${E} group by 1`,
 agents: sql`select agent_id, ${counts}, ${sums('first_response_buckets','f',27)} from report_days where workspace_id = ${W} and label_id = ${N} and day between '2025-11-25' and '2026-11-24' and agent_id <> ${E} and channel_id = ${E} group by 1`,
}
for (const [name, q] of Object.entries(qs)) {
  const r = await sql`explain (analyze, buffers) ${q}`.execute(db)
  const lines = (r.rows as Array<Record<string, string>>).map((row) => Object.values(row)[0])
  console.log(name, lines.filter((l) => /Execution Time|rows=|Index|Filter|Sort Method/.test(l)).slice(0, 8).join('\n   '))
}
await db.destroy()
