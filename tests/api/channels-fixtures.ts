import { conversationsPath, type ConversationJson, type MessageJson } from './conversations-fixtures.ts'
import { type TestApi } from './harness.ts'

/** Waits (up to 15 s) for `check` to give a value: webhooks and sends are jobs, done in their own time. */
export async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
	for (let waited = 0; waited < 15_000; waited += 50) {
		const value = await check()
		if (value) return value
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
	throw new Error('timed out')
}

/** What a member reads of one channel: its conversations (every status), and a conversation's thread. */
export function channelReader(api: TestApi, workspaceId: string, auth: Record<string, string>) {
	return {
		async conversationsOf(channelId: string): Promise<ConversationJson[]> {
			const answer = await api.request('GET', `${conversationsPath(workspaceId)}?status=all&channelId=${channelId}`, { headers: auth })
			return (answer.body as { conversations: ConversationJson[] }).conversations
		},
		async thread(number: number): Promise<MessageJson[]> {
			const answer = await api.request('GET', conversationsPath(workspaceId, `/${number}/messages`), { headers: auth })
			return (answer.body as { messages: MessageJson[] }).messages
		},
		/** The channel's first conversation, once its webhook has been processed. */
		firstConversation(channelId: string): Promise<ConversationJson> {
			return until(async () => (await this.conversationsOf(channelId))[0])
		},
	}
}
