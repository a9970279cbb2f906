import { lockConversations, postMessage, type Actor } from '#api/conversations/actions.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { type ChannelKind } from '#api/db/schema.ts'
import { backdateConversation, unheard } from './inbox.ts'

/**
 * One conversation on each messaging kind, so that a newcomer sees the inbox as it will be with
 * their accounts connected. The channels have no credentials and are switched off: connecting a
 * real number, bot or page is done in settings, and a switched-off channel takes no replies.
 */
type DemoChannel = {
	kind: Exclude<ChannelKind, 'link'>
	name: string
	settings: Record<string, unknown>
	customer: { externalId: string; name: string; phone?: string }
	thread: Array<{ in: string } | { reply: string }>
}

export const demoMessagingChannels: DemoChannel[] = [
	{
		kind: 'whatsapp',
		name: 'WhatsApp (demo)',
		settings: { displayPhoneNumber: '+20 100 000 0000', verifiedName: 'Demo Shop' },
		customer: { externalId: '201001234567', name: 'Youssef Kamal', phone: '+201001234567' },
		thread: [
			{ in: 'مساء الخير، هل التوصيل متاح لمدينة نصر اليوم؟' },
			{ reply: 'مساء النور! نعم، الطلبات قبل ٤ مساءً تصل اليوم.' },
			{ in: 'تمام، سأطلب الآن 👍' },
		],
	},
	{
		kind: 'telegram',
		name: 'Telegram (demo)',
		settings: { botUsername: 'demo_shop_bot', botName: 'Demo Shop' },
		customer: { externalId: '5550001001', name: 'Léa Fontaine' },
		thread: [{ in: 'Bonjour, la veste en lin existe-t-elle en taille S ?' }, { reply: 'Bonjour Léa, oui : il en reste trois en S, en beige et en bleu.' }],
	},
	{
		kind: 'messenger',
		name: 'Messenger (demo)',
		settings: { pageName: 'Demo Shop' },
		customer: { externalId: '6100000000000001', name: 'Oliver Bennett' },
		thread: [{ in: 'Hi! Can I change the delivery address of order 10412?' }],
	},
	{
		kind: 'instagram',
		name: 'Instagram (demo)',
		settings: { pageName: 'Demo Shop', instagramUsername: 'demo.shop' },
		customer: { externalId: '17840000000000001', name: 'nour.designs' },
		thread: [{ in: 'Love the new collection 😍 do you ship to Dubai?' }, { reply: 'Thank you! Yes, we ship to the UAE in 3 to 5 days.' }],
	},
	{
		kind: 'facebook',
		name: 'Facebook (demo)',
		settings: { pageName: 'Demo Shop' },
		customer: { externalId: '6100000000000002', name: 'Sara Benali' },
		thread: [{ in: 'Bonsoir, vous êtes ouverts dimanche ?' }],
	},
]

/**
 * Creates the demo's messaging channels and plays each one's thread (customers through the inbound
 * path, replies by the owner, marked read as the provider would have said). Once: a kind whose demo
 * channel exists is left as it is.
 */
export async function seedDemoChannels(db: DB, workspaceId: string, owner: Actor): Promise<number> {
	let created = 0
	for (const [index, demo] of demoMessagingChannels.entries()) {
		const existing = await db
			.selectFrom('channels')
			.select('id')
			.where('workspaceId', '=', workspaceId)
			.where('kind', '=', demo.kind)
			.where('name', '=', demo.name)
			.executeTakeFirst()
		if (existing) continue
		const channel = await db
			.insertInto('channels')
			.values({ workspaceId, kind: demo.kind, name: demo.name, enabled: false, status: 'disabled', settings: demo.settings })
			.returningAll()
			.executeTakeFirstOrThrow()
		let number = 0
		for (const [stepIndex, step] of demo.thread.entries()) {
			if ('in' in step) {
				const { conversation } = await receiveMessage(db, unheard, {
					channel,
					from: demo.customer,
					externalId: `demo-${demo.kind}-${stepIndex}`,
					body: step.in,
				})
				number = conversation.number
				continue
			}
			await db.transaction().execute(async (trx) => {
				const [conversation] = await lockConversations(trx, workspaceId, [number])
				if (!conversation) throw new Error(`demo conversation #${number} is missing`)
				const { message } = await postMessage(trx, conversation, { kind: 'text', body: step.reply }, owner)
				// Its send job finds it delivered already and does nothing: the demo channels reach nobody.
				await trx
					.updateTable('messages')
					.set({ status: 'read', externalId: `demo-${demo.kind}-${stepIndex}` })
					.where('id', '=', message.id)
					.execute()
			})
		}
		const conversation = await db.selectFrom('conversations').select('id').where('channelId', '=', channel.id).executeTakeFirstOrThrow()
		await backdateConversation(db, conversation.id, (index + 1) * 3)
		created++
	}
	return created
}
