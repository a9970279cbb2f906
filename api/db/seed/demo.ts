import { sql } from 'kysely'
import { hashPassword } from '#api/auth/password.ts'
import { importContacts } from '#api/contacts/import.ts'
import { type CsvRecord } from '#api/contacts/csv.ts'
import { type DB } from '#api/db/database.ts'
import { translatorFor } from '#api/http/i18n.ts'
import { rebuildReports } from '#api/reports/rollup.ts'
import { demoCampaign, seedDemoCampaign } from './campaigns.ts'
import { seedDemoChannels } from './channels.ts'
import { seedDemoHistory } from './history.ts'
import { seedDemoInbox } from './inbox.ts'
import * as people from './people.ts'

/** The account the README names; teammates share its password. */
export const demoAccount = { email: 'demo@example.com', password: 'Demo-password-1', name: 'Demo Owner' }

const teammates = [
	{ email: 'amira@example.com', name: 'أميرة حسن', role: 'admin' as const },
	{ email: 'julien@example.com', name: 'Julien Martin', role: 'agent' as const },
]

export const demoContactCount = 300

type Log = (message: string) => void

/** True when nobody has signed up yet: `npm start -- --demo` seeds only then. */
export async function isEmpty(db: DB): Promise<boolean> {
	return !(await db.selectFrom('users').select('id').limit(1).executeTakeFirst())
}

/**
 * The demo workspace: an owner, an admin and an agent, labels, canned responses, 300
 * contacts with Arabic, French and English names, a chat link with 30 conversations in the
 * three languages (api/db/seed/inbox.ts), a conversation on each messaging kind (channels.ts), a
 * completed campaign (campaigns.ts) and a year of resolved conversations for the reports (history.ts). Idempotent: a second run changes nothing (contacts are matched
 * by e-mail, as an import does).
 */
export async function seedDemo(db: DB, log: Log): Promise<{ workspaceId: string }> {
	const passwordHash = await hashPassword(demoAccount.password)
	const workspaceId = await db.transaction().execute(async (trx) => {
		const workspace =
			(await trx.selectFrom('workspaces').select('id').where('slug', '=', 'demo').executeTakeFirst()) ??
			(await trx.insertInto('workspaces').values({ name: 'Demo Workspace', slug: 'demo', timezone: 'Africa/Cairo' }).returning('id').executeTakeFirstOrThrow())
		for (const person of [{ ...demoAccount, role: 'owner' as const }, ...teammates]) {
			const user = await trx
				.insertInto('users')
				.values({ email: person.email, name: person.name, passwordHash, emailVerifiedAt: new Date(), currentWorkspaceId: workspace.id })
				.onConflict((oc) => oc.column('email').doUpdateSet({ name: person.name }))
				.returning('id')
				.executeTakeFirstOrThrow()
			await trx
				.insertInto('members')
				.values({ workspaceId: workspace.id, userId: user.id, role: person.role })
				.onConflict((oc) => oc.columns(['workspaceId', 'userId']).doNothing())
				.execute()
		}
		await trx
			.insertInto('cannedResponses')
			.values(people.demoCannedResponses.map((canned) => ({ workspaceId: workspace.id, ...canned })))
			.onConflict((oc) => oc.columns(['workspaceId', 'shortCode']).doNothing())
			.execute()
		await trx
			.insertInto('labels')
			.values(people.demoLabels.map((label) => ({ workspaceId: workspace.id, ...label })))
			.onConflict((oc) => oc.columns(['workspaceId', 'title']).doNothing())
			.execute()
		return workspace.id
	})

	const startedAt = new Date()
	const result = await importContacts(db, demoContacts(), { workspaceId, t: translatorFor('en-us'), createLabels: false })
	if (result.rejected.length) throw new Error(`demo contacts refused: ${JSON.stringify(result.rejected.slice(0, 3))}`)
	// Customers arrived over the last six months, not all in this second (on a day and minute drawn from their e-mail or phone).
	const key = sql`md5(coalesce(email, phone, id::text))`
	const arrived = sql`now() - make_interval(days => (('x' || substr(${key}, 1, 6))::bit(24)::int % 180), mins => (('x' || substr(${key}, 7, 4))::bit(16)::int % 1440))`
	await sql`
		update contacts set created_at = ${arrived}, last_activity_at = ${arrived}, updated_at = ${arrived}
		where workspace_id = ${workspaceId} and created_at >= ${startedAt}`.execute(db)
	log(`demo workspace: ${result.created} contacts created, ${result.updated} already there`)
	const inbox = await seedDemoInbox(db, workspaceId)
	log(inbox.created ? `demo inbox: ${inbox.created} conversations on the chat link /c/demo-support` : 'demo inbox: already there')
	const owner = await db.selectFrom('users').select(['id', 'name']).where('email', '=', demoAccount.email).executeTakeFirstOrThrow()
	const channels = await seedDemoChannels(db, workspaceId, owner)
	if (channels) log(`demo channels: ${channels} switched-off messaging channels with a conversation each (connect your own in settings)`)
	const campaign = await seedDemoCampaign(db, workspaceId, owner.id)
	if (campaign) log(`demo campaign: "${demoCampaign.name}", completed, to ${campaign} chat-link visitors`)
	const history = await seedDemoHistory(db, workspaceId)
	if (history.created) {
		// The dashboard reads its roll-ups at once, not after the job's next turn.
		await rebuildReports(db, workspaceId)
		log(`demo history: ${history.created} resolved conversations over the last year, for the dashboard's reports`)
	}
	return { workspaceId }
}

/** A small seeded generator (mulberry32): the same demo on every machine. */
function random(seed: number) {
	let state = seed
	const next = () => {
		state = (state + 0x6d2b79f5) | 0
		let t = Math.imul(state ^ (state >>> 15), 1 | state)
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
	const chance = (share: number) => next() < share
	return { next, pick, chance }
}

const emailDomains = ['example.com', 'example.org', 'example.net']

/** Lower-case ASCII for an e-mail address: `Élodie Lefèvre` → `elodie.lefevre`. */
function mailbox(...parts: string[]): string {
	return parts
		.map((part) =>
			part
				.normalize('NFD')
				.replace(/[^\p{L}\p{N}]/gu, '')
				.replace(/[^a-zA-Z0-9]/g, '')
				.toLowerCase(),
		)
		.join('.')
}

/** The demo's contacts as rows of a CSV import, a third each with Arabic, French and English names. */
function demoContacts(): CsvRecord[] {
	const { next, pick, chance } = random(20261123)
	const phone = (region: people.Region) => {
		const [prefix, digits] = pick(people.mobilePlans[region])
		return prefix + Array.from({ length: digits }, () => Math.floor(next() * 10)).join('')
	}
	const used = new Set<string>()
	const records: CsvRecord[] = []
	for (let index = 0; index < demoContactCount; index++) {
		let name: string
		let address: string
		let company: string | undefined
		let region: people.Region
		if (index % 3 === 0) {
			const [first, firstLatin] = pick(people.arabicFirstNames)
			const [family, familyLatin] = pick(people.arabicFamilyNames)
			name = `${first} ${family}`
			address = mailbox(firstLatin, familyLatin)
			company = chance(0.6) ? pick(people.arabicCompanies) : undefined
			region = pick(['egypt', 'egypt', 'morocco', 'saudi'] as const)
		} else if (index % 3 === 1) {
			name = `${pick(people.frenchFirstNames)} ${pick(people.frenchFamilyNames)}`
			address = mailbox(...name.split(' '))
			company = chance(0.6) ? pick(people.frenchCompanies) : undefined
			region = 'france'
		} else {
			name = `${pick(people.englishFirstNames)} ${pick(people.englishFamilyNames)}`
			address = mailbox(...name.split(' '))
			company = chance(0.6) ? pick(people.englishCompanies) : undefined
			region = 'uk'
		}
		let local = address
		for (let suffix = 2; used.has(local); suffix++) local = `${address}${suffix}`
		used.add(local)
		const labels = people.demoLabels.filter((_, labelIndex) => labelIndex < 5 && chance(0.18)).map((label) => label.title)
		if (region !== 'france' && region !== 'uk' && chance(0.2)) labels.push('عميل-مميز')
		if (region === 'france' && chance(0.15)) labels.push('partenaire')
		// Every contact has an e-mail or a phone, which a second run matches it by.
		const email = chance(0.9) ? `${local}@${pick(emailDomains)}` : undefined
		records.push({
			row: index + 2,
			extraFields: false,
			cells: {
				name,
				email,
				phone: !email || chance(0.85) ? phone(region) : undefined,
				company,
				labels: labels.join(';'),
				notes: chance(0.15) ? pick(people.demoNotes) : undefined,
			},
		})
	}
	return records
}
