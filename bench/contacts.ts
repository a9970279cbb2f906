/**
 * The contacts case of `npm run bench`: 100 000 contacts in one workspace and 100 000 in another,
 * written straight into the server's database (INSERT … SELECT over generate_series, then VACUUM
 * ANALYZE as autovacuum would), and a member's bearer token, then the `/v1` list, a page 2 000 rows
 * deep reached by following cursors, searches (Latin, Arabic, phone digits), a label filter, and
 * the rendered page (`/{lang}/dashboard/contacts`) signed in with the same token.
 */
import crypto from 'node:crypto'
import { sql } from 'kysely'
import { createSession } from '#api/auth/sessions.ts'
import { createDb, type DB } from '#api/db/database.ts'
import { hashPassword } from '#api/auth/password.ts'

export const contactsPerWorkspace = 100_000
/** How deep the deep-page case starts, in rows. */
export const deepPageRows = 2_000

export type ContactsDataset = {
	workspaceId: string
	otherWorkspaceId: string
	token: string
	labelId: string
	rows: number
	rowsInWorkspace: number
	databaseBytes: number
	seedSeconds: number
}

const latinFirst = [
	'Mohamed',
	'Ahmed',
	'Élodie',
	'Zoë',
	'José',
	'Amira',
	'Julien',
	'Sarah',
	'Karim',
	'Chloé',
	'Omar',
	'Léa',
	'Youssef',
	'Inès',
	'Hugo',
	'Nour',
	'Lucas',
	'Fatima',
	'Mia',
	'Hassan',
]
const latinLast = [
	'Hassan',
	'Martin',
	'Durand',
	'Ali',
	'Bernard',
	'Müller',
	'Ibrahim',
	'Dubois',
	'Mansour',
	'Lefèvre',
	'Farouk',
	'Moreau',
	'Saleh',
	'García',
	'Nasser',
	'Laurent',
	'Khalil',
	'Roux',
	'Said',
	'Fournier',
]
const arabicFirst = ['محمد', 'أحمد', 'فاطمة', 'مُحَمَّد', 'يوسف', 'مريم', 'عمر', 'نور', 'خالد', 'سارة', 'إبراهيم', 'ليلى', 'حسن', 'آمنة', 'علي']
const arabicLast = ['حسن', 'علي', 'إبراهيم', 'منصور', 'السيد', 'عبد الله', 'فاروق', 'خليل', 'صالح', 'ناصر']
const companies = [
	'Nile Trading',
	'Café Crème',
	'شركة النيل',
	'Delta Foods',
	'Atlas Voyages',
	'مؤسسة الأمل',
	'Boulangerie Paul',
	'Cairo Tech',
	'Lumière SARL',
	'Sahara Logistics',
]

const pick = (list: string[], index: ReturnType<typeof sql>) => sql`(${sql.val(list)}::text[])[1 + (${index}) % ${list.length}]`

/** One workspace's contacts: two in three with Latin names, one in three Arabic; 30 % with one of ten labels; ties on every sort key. */
async function seedWorkspace(db: DB, workspaceId: string, offset: number) {
	const i = sql`i`
	await sql`
		insert into contacts (workspace_id, name, email, phone, company, avatar_color, created_at, last_activity_at)
		select ${workspaceId},
			case when i % 3 = 0 then ${pick(arabicFirst, sql`i * 7`)} || ' ' || ${pick(arabicLast, sql`i / 15`)}
				else ${pick(latinFirst, sql`i * 13`)} || ' ' || ${pick(latinLast, sql`i / 20`)} end,
			case when i % 10 < 8 then 'contact' || (i + ${offset}) || '@example' || (i % 37) || '.test' end,
			case when i % 10 <> 5 then '+2010' || (10000000 + i + ${offset})::text end,
			case when i % 4 <> 0 then ${pick(companies, sql`i * 3`)} end,
			'#6366f1',
			timestamptz '2024-01-01' + (i / 3) * interval '7 minutes',
			timestamptz '2024-01-01' + ((i * 7919) % ${contactsPerWorkspace}) * interval '5 minutes'
		from generate_series(1, ${contactsPerWorkspace}) as ${i}
	`.execute(db)
	const labels = await db
		.insertInto('labels')
		.values(Array.from({ length: 10 }, (_, n) => ({ workspaceId, title: `segment-${n}`, color: '#4f46e5' })))
		.returning('id')
		.execute()
	await sql`
		insert into contact_labels (workspace_id, contact_id, label_id)
		select workspace_id, id, (${sql.val(labels.map((label) => label.id))}::uuid[])[1 + abs(hashtext(id::text)) % 10]
		from contacts where workspace_id = ${workspaceId} and abs(hashtext(id::text || 'l')) % 10 < 3
	`.execute(db)
	return labels[0]?.id ?? ''
}

/** Seeds the database behind the running server and signs a member in. */
export async function seedContacts(databaseUrl: string, log: (message: string) => void): Promise<ContactsDataset> {
	const db = createDb(databaseUrl, 2)
	try {
		const started = Date.now()
		// Unique names, in case BENCH_DATABASE_URL points at a database that has seen a run before.
		const run = crypto.randomBytes(4).toString('hex')
		const [workspace, other] = await db
			.insertInto('workspaces')
			.values([
				{ name: 'Bench contacts', slug: `bench-contacts-${run}` },
				{ name: 'Bench neighbours', slug: `bench-neighbours-${run}` },
			])
			.returning('id')
			.execute()
		if (!workspace || !other) throw new Error('no workspaces')
		const user = await db
			.insertInto('users')
			.values({
				email: `bench-agent-${run}@example.test`,
				name: 'Bench Agent',
				passwordHash: await hashPassword('Bench-password-1'),
				emailVerifiedAt: new Date(),
				currentWorkspaceId: workspace.id,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await db.insertInto('members').values({ workspaceId: workspace.id, userId: user.id, role: 'agent' }).execute()
		const token = await createSession(db, user.id)

		log(`seeding ${contactsPerWorkspace.toLocaleString('en-US')} contacts in each of two workspaces`)
		const labelId = await seedWorkspace(db, workspace.id, 0)
		await seedWorkspace(db, other.id, contactsPerWorkspace)
		await sql`vacuum analyze contacts`.execute(db)
		await sql`vacuum analyze contact_labels`.execute(db)
		// Filled by triggers: its trigram index's pending list is merged here, not by autovacuum during the run.
		await sql`vacuum analyze contact_search`.execute(db)
		const seedSeconds = (Date.now() - started) / 1000

		const counts = await db
			.selectFrom('contacts')
			.select((eb) => [
				eb.fn.countAll<number>().as('rows'),
				eb.fn.count<number>(eb.case().when('workspaceId', '=', workspace.id).then(1).end()).as('inWorkspace'),
			])
			.executeTakeFirstOrThrow()
		const size = await sql<{ bytes: number }>`select pg_database_size(current_database())::bigint as bytes`.execute(db)
		log(`seeded in ${seedSeconds.toFixed(1)} s`)
		return {
			workspaceId: workspace.id,
			otherWorkspaceId: other.id,
			token,
			labelId,
			rows: counts.rows,
			rowsInWorkspace: counts.inWorkspace,
			databaseBytes: Number(size.rows[0]?.bytes ?? 0),
			seedSeconds,
		}
	} finally {
		await db.destroy()
	}
}

/** The cursor `rows` deep into the default order, followed page by page as a browser would. */
export async function cursorAt(baseUrl: string, dataset: ContactsDataset, rows: number): Promise<string> {
	let cursor: string | null = null
	for (let seen = 0; seen < rows; seen += 100) {
		const query: string = `?limit=100${cursor ? `&cursor=${cursor}` : ''}`
		const response = await fetch(`${baseUrl}/v1/workspaces/${dataset.workspaceId}/contacts${query}`, { headers: { Authorization: `Bearer ${dataset.token}` } })
		if (!response.ok) throw new Error(`following cursors: ${response.status} ${await response.text()}`)
		cursor = ((await response.json()) as { nextCursor: string | null }).nextCursor
		if (!cursor) throw new Error(`fewer than ${rows} contacts`)
	}
	return cursor ?? ''
}
