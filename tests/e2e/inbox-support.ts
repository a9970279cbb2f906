import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pino from 'pino'
import { type APIRequestContext } from '@playwright/test'
import { createDb, type DB } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { type Channel } from '#api/db/schema.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { createRealtime, type Realtime } from '#api/realtime/publisher.ts'
import { createWorkspace, registerUser } from './accounts.ts'
import { inviteAndAccept } from './realtime-support.ts'

const quiet = { info: () => {}, debug: () => {}, error: () => {} }

/**
 * The test server's own database and realtime server, as a channel's webhook would reach them: the
 * embedded PostgreSQL of its DATA_DIR (found through its postmaster.pid) and its Pusher credentials.
 */
export async function inboundPath(baseURL: string): Promise<{ db: DB; realtime: Realtime; close: () => Promise<void> }> {
	const dataDir = process.env.E2E_DATA_DIR!
	const cluster = await startEmbeddedPostgres({ directory: path.join(dataDir, 'postgres'), log: quiet })
	const db = createDb(cluster.url('crm'), 2)
	const app = JSON.parse(fs.readFileSync(path.join(dataDir, 'realtime-app.json'), 'utf8')) as { id: string; key: string; secret: string }
	const url = new URL(baseURL)
	const realtime = createRealtime({
		target: () => ({ appId: app.id, key: app.key, secret: app.secret, host: url.hostname, port: Number(url.port), useTLS: false }),
		logger: pino({ level: 'silent' }),
	})
	return {
		db,
		realtime,
		close: async () => {
			await realtime.flush()
			await db.destroy()
		},
	}
}

/** A link channel of the workspace, made directly in the database (its settings pages are another helper's). */
export async function linkChannel(db: DB, workspaceId: string, name = 'Website chat'): Promise<Channel> {
	return db
		.insertInto('channels')
		.values({ workspaceId, kind: 'link', name, slug: `e2e-${crypto.randomBytes(6).toString('hex')}`, settings: {} })
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** A customer writes on the channel, as its provider hands the message over. */
export async function customerWrites(inbound: { db: DB; realtime: Realtime }, channel: Channel, customer: string, body: string) {
	const received = await receiveMessage(inbound.db, inbound.realtime, { channel, from: { externalId: `visitor-${customer}`, name: customer }, body })
	await inbound.realtime.flush()
	return received
}

/** What `busyInbox` made: the owner, a teammate, the workspace and its chat link. */
export type BusyInbox = Awaited<ReturnType<typeof busyInbox>>

/**
 * A day's inbox in three languages: 14 customers with Arabic, French and English names on a chat
 * link, replies by the owner and by a teammate with an Arabic name, a private note, assignments, a
 * label and a snoozed conversation. Conversation 1 is Nadia's, with a link in her message.
 */
export async function busyInbox(
	inbound: { db: DB; realtime: Realtime },
	request: APIRequestContext,
	options: { locale?: string; owner?: string; teammate?: string } = {},
) {
	const owner = await registerUser(request, { name: options.owner ?? 'Olga Owner', locale: options.locale })
	const teammate = await registerUser(request, { name: options.teammate ?? 'أميرة حسن', locale: 'ar-eg' })
	// Confirmed addresses, as a team's would be: no banner takes the inbox's room.
	await inbound.db.updateTable('users').set({ emailVerifiedAt: new Date() }).where('id', 'in', [owner.user.id, teammate.user.id]).execute()
	const workspace = await createWorkspace(request, owner.token, 'Inbox Co')
	await inviteAndAccept(request, workspace.id, owner.token, teammate.token)
	const channel = await linkChannel(inbound.db, workspace.id)
	const customers: Array<[string, string]> = [
		['Nadia Customer', 'Hello, my order #4521 is late, see https://shop.example/orders/4521 please'],
		['إيمان درويش', 'السلام عليكم، الطلب وصل ناقص قطعة'],
		['Jean-Pierre Lefèvre', 'Bonjour, je voudrais modifier l’adresse de livraison de ma commande'],
		['Karim Buyer', 'Do you ship to Cairo? I would like to order twelve of the blue ones'],
		['محمود سامي', 'عايز أرجّع المنتج، إزاي؟'],
		['Sophie Martin', 'La facture ne correspond pas au montant payé, pouvez-vous vérifier ?'],
		['Liam O’Brien', 'The tracking link says delivered but nothing arrived at my door yet'],
		['فاطمة الزهراء', 'هل عندكم مقاس أكبر من الفستان الأزرق؟'],
		['Chloé Dubois', 'Merci pour votre aide, tout est réglé !'],
		['Omar Haddad', 'Can I pay on delivery in Alexandria?'],
		['ياسمين علي', 'الشحن بياخد كام يوم للإسكندرية؟'],
		['Noah Schmidt', 'Is the warranty valid outside the EU?'],
		['Léa Bernard', 'Je n’ai pas reçu l’e-mail de confirmation.'],
		['Hassan Youssef', 'Order 7781: wrong colour sent, I asked for green'],
	]
	for (const [name, body] of customers) await customerWrites(inbound, channel, name, body)
	const as = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } })
	const path = (number: number, rest = '') => `/v1/workspaces/${workspace.id}/conversations/${number}${rest}`
	const reply = async (token: string, number: number, body: string, kind: 'text' | 'note' = 'text') => {
		const response = await request.post(path(number, '/messages'), { data: { kind, body }, ...as(token) })
		if (!response.ok()) throw new Error(`reply failed: ${response.status()} ${await response.text()}`)
	}
	await request.patch(path(2), { data: { assigneeId: teammate.user.id }, ...as(owner.token) })
	await reply(teammate.token, 2, 'هنبعتلك القطعة الناقصة بكرة إن شاء الله')
	await reply(owner.token, 3, 'Bonjour Jean-Pierre, c’est fait : la nouvelle adresse est enregistrée.')
	await reply(teammate.token, 4, 'Yes, we ship to Cairo within 3 days.')
	await reply(owner.token, 1, 'Checking with the warehouse', 'note')
	await request.patch(path(1), { data: { assigneeId: teammate.user.id, priority: 'high' }, ...as(owner.token) })
	// A title of both directions (a label's title is letters, digits, - and _ only).
	const label = await request.post(`/v1/workspaces/${workspace.id}/labels`, { data: { title: 'VIP_عاجل', color: '#dc2626' }, ...as(owner.token) })
	if (!label.ok()) throw new Error(`label failed: ${label.status()} ${await label.text()}`)
	const { id: labelId } = (await label.json()) as { id: string }
	const labelled = await request.put(path(1, '/labels'), { data: { labelIds: [labelId] }, ...as(owner.token) })
	if (!labelled.ok()) throw new Error(`labelling failed: ${labelled.status()}`)
	await request.patch(path(5), { data: { status: 'snoozed', snoozedUntil: new Date(Date.now() + 3600_000).toISOString() }, ...as(owner.token) })
	return { owner, teammate, workspace, channel, labelId }
}
