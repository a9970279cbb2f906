import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { notify } from '#api/notifications/notify.ts'
import { pushTtlSeconds, queuePush, sendPush } from '#api/notifications/push.ts'
import { notificationAddress, notificationLine } from '#api/notifications/words.ts'
import { type NotificationKind, type NotificationValues } from '#common/notifications.ts'
import { type PushFake, pushCertificatePath, startPushFake, type PushSubscriptionJSON } from '../fakes/push.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'

const db = () => testDb()
const quiet = { info: () => {}, debug: () => {}, error: () => {} }

let fake: PushFake
/** Push endpoints on loopback allowed (the fake), as every test but the guard's. */
let api: TestApi
/** WEBHOOK_ALLOW_PRIVATE unset: what production does. */
let strictApi: TestApi
let runner: JobRunner

beforeAll(async () => {
	fake = await startPushFake()
	api = await startApi({ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOUND_CA_FILE: pushCertificatePath }, { mail: false })
	strictApi = await startApi({ OUTBOUND_CA_FILE: pushCertificatePath }, { mail: false })
	runner = await startJobRunner({
		db: db(),
		databaseUrl: inject('databaseUrl'),
		handlers: { 'send-push': jobHandlers['send-push'] },
		log: quiet,
		config: api.config,
		pollInterval: 100,
	})
})
afterAll(async () => {
	await runner?.stop()
	await api?.close()
	await strictApi?.close()
	await fake?.close()
})

const idOf = (subscription: PushSubscriptionJSON) => subscription.endpoint.split('/').pop()!
const pushesTo = (subscription: PushSubscriptionJSON) => fake.pushes.filter((push) => push.subscriptionId === idOf(subscription))

/** A member of a new workspace, speaking `locale`. */
async function member(options: { locale?: string; workspace?: string } = {}) {
	const workspace = await createWorkspace(options.workspace ?? 'Atelier Nord')
	const user = await createUser({ workspaceId: workspace.id, role: 'agent' })
	if (options.locale) await db().updateTable('users').set({ locale: options.locale }).where('id', '=', user.user.id).execute()
	return { ...user, workspace }
}

/** A device of the user, turned on through the API as the settings page does. */
async function device(user: { auth: Record<string, string> }, target = api) {
	const subscription = fake.subscribe()
	const answer = await target.request('POST', '/v1/user/push-subscriptions', {
		body: subscription,
		headers: { ...user.auth, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' },
	})
	expect(answer.status, JSON.stringify(answer.body)).toBe(201)
	return { subscription, id: (answer.body as { id: string }).id }
}

async function notification(
	userId: string,
	workspaceId: string,
	kind: NotificationKind = 'assigned',
	values: NotificationValues = { number: 7, contact: 'أمل' },
) {
	return db().insertInto('notifications').values({ workspaceId, userId, kind, values }).returning(['id', 'userId', 'workspaceId']).executeTakeFirstOrThrow()
}

const pushedAt = async (id: string) => (await db().selectFrom('notifications').select('pushedAt').where('id', '=', id).executeTakeFirstOrThrow()).pushedAt
const until = async (check: () => Promise<boolean>, timeoutMs = 5000) => {
	const end = Date.now() + timeoutMs
	while (!(await check())) {
		if (Date.now() > end) throw new Error('timed out')
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
}

describe('browser push', () => {
	test("a notification's job pushes it to each of the member's devices, decrypted in their language, and marks it", async () => {
		const agent = await member({ locale: 'fr-x', workspace: 'Atelier Nord' })
		const [first, second] = [await device(agent), await device(agent)]
		const row = await notification(agent.user.id, agent.workspace.id)
		await queuePush(db(), [row])

		const expected = {
			title: 'Atelier Nord',
			body: await notificationLine('fr-x', { id: row.id, kind: 'assigned', values: { number: 7, contact: 'أمل' } }),
			url: notificationAddress('http://crm.test', 'fr-x', row),
			tag: `notification-${row.id}`,
		}
		// French words, the customer's Arabic name isolated within them.
		expect(expected.body).toMatch(/^La conversation .*7.*\u2068أمل\u2069/)
		for (const { subscription } of [first, second]) {
			const push = await fake.waitForPush((entry) => entry.subscriptionId === idOf(subscription))
			expect(JSON.parse(push.payload)).toEqual(expected)
			expect(push).toMatchObject({ ttl: pushTtlSeconds, urgency: 'high', vapidSubject: api.config.VAPID_SUBJECT })
		}
		await until(async () => (await pushedAt(row.id)) !== null)
		const devices = await db().selectFrom('pushSubscriptions').select('lastSuccessAt').where('userId', '=', agent.user.id).execute()
		expect(devices.every((entry) => entry.lastSuccessAt !== null)).toBe(true)
		// The settings list the devices with their browser, and the key to subscribe with.
		const list = await api.request('GET', '/v1/user/push-subscriptions', { headers: agent.auth })
		expect(list.body).toMatchObject({
			publicKey: api.config.VAPID_PUBLIC_KEY,
			devices: [{ browser: 'Firefox 133', system: 'Linux' }, { browser: 'Firefox 133' }],
		})
	})

	test('notify() queues the push of what the member wants pushed: an assignment by default, not a finished campaign, nor a kind turned off', async () => {
		const agent = await member({ locale: 'en-us', workspace: 'Northwind' })
		const { subscription } = await device(agent)
		await db()
			.insertInto('notificationPreferences')
			.values({ workspaceId: agent.workspace.id, userId: agent.user.id, kind: 'mentioned', medium: 'push', enabled: false })
			.execute()
		const draft = { workspaceId: agent.workspace.id, userId: agent.user.id }
		await db()
			.transaction()
			.execute((trx) =>
				notify(trx, [
					{ ...draft, kind: 'campaignDone', values: { campaign: 'Spring', sent: 3, failed: 0 } },
					{ ...draft, kind: 'mentioned', values: { number: 4, actor: 'Nadia' } },
					{ ...draft, kind: 'assigned', values: { number: 9, contact: 'Sam' } },
				]),
			)
		const push = await fake.waitForPush((entry) => entry.subscriptionId === idOf(subscription))
		expect(JSON.parse(push.payload)).toMatchObject({ title: 'Northwind', body: 'Conversation #9 with \u2068Sam\u2069 was assigned to you' })
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(pushesTo(subscription)).toHaveLength(1)
	})

	test('a user without a device gets no job', async () => {
		const agent = await member()
		const row = await notification(agent.user.id, agent.workspace.id)
		await queuePush(db(), [row])
		const jobs = await sql<{
			count: number
		}>`select count(*)::int as count from graphile_worker._private_jobs where payload->>'notificationId' = ${row.id}`.execute(db())
		expect(jobs.rows[0]?.count).toBe(0)
	})

	test('nothing is pushed while the member looks at a tab of the workspace, nor once it is read', async () => {
		const agent = await member({ locale: 'ar-eg' })
		const { subscription } = await device(agent)
		const focus = (focused: boolean) => api.request('POST', `/v1/workspaces/${agent.workspace.id}/presence/focus`, { body: { focused }, headers: agent.auth })

		const focused = await focus(true)
		expect(focused.status).toBe(200)
		const until = new Date((focused.body as { focusedUntil: string }).focusedUntil).getTime()
		expect(until - Date.now()).toBeGreaterThan(50_000)
		expect(until - Date.now()).toBeLessThanOrEqual(61_000)
		const seen = await notification(agent.user.id, agent.workspace.id)
		await sendPush(db(), api.config, { notificationId: seen.id })
		expect(pushesTo(subscription)).toEqual([])
		expect(await pushedAt(seen.id)).toBeNull()

		expect((await focus(false)).body).toEqual({ focusedUntil: null })
		const read = await notification(agent.user.id, agent.workspace.id)
		await db().updateTable('notifications').set({ readAt: new Date() }).where('id', '=', read.id).execute()
		await sendPush(db(), api.config, { notificationId: read.id })
		expect(pushesTo(subscription)).toEqual([])

		// A focus that has run out (the tab was closed without a word) no longer holds the push back.
		await db()
			.updateTable('members')
			.set({ focusedUntil: new Date(Date.now() - 1000) })
			.where('userId', '=', agent.user.id)
			.execute()
		const later = await notification(agent.user.id, agent.workspace.id, 'mentioned', { number: 3, actor: 'Nadia' })
		await sendPush(db(), api.config, { notificationId: later.id })
		expect(JSON.parse(pushesTo(subscription)[0]!.payload)).toMatchObject({
			body: await notificationLine('ar-eg', { id: later.id, kind: 'mentioned', values: { number: 3, actor: 'Nadia' } }),
		})
	})

	test("focus counts per workspace: a member of two is held back only in the one they look at, and another workspace's focus is refused", async () => {
		const agent = await member()
		const other = await createWorkspace('Other')
		await db().insertInto('members').values({ workspaceId: other.id, userId: agent.user.id, role: 'agent' }).execute()
		const { subscription } = await device(agent)
		expect((await api.request('POST', `/v1/workspaces/${agent.workspace.id}/presence/focus`, { body: { focused: true }, headers: agent.auth })).status).toBe(
			200,
		)
		const here = await notification(agent.user.id, agent.workspace.id)
		const there = await notification(agent.user.id, other.id)
		await sendPush(db(), api.config, { notificationId: here.id })
		await sendPush(db(), api.config, { notificationId: there.id })
		expect(pushesTo(subscription).map((push) => (JSON.parse(push.payload) as { title: string }).title)).toEqual(['Other'])

		// A workspace they are not a member of: 404, and its members' focus is untouched.
		const stranger = await member()
		const strangerFocus = async () =>
			(await db().selectFrom('members').select('focusedUntil').where('userId', '=', stranger.user.id).executeTakeFirstOrThrow()).focusedUntil
		const refused = await api.request('POST', `/v1/workspaces/${stranger.workspace.id}/presence/focus`, { body: { focused: true }, headers: agent.auth })
		expect(refused.status).toBe(404)
		expect(await strangerFocus()).toBeNull()
		expect((await api.request('POST', `/v1/workspaces/${agent.workspace.id}/presence/focus`, { body: { focused: 'yes' }, headers: agent.auth })).status).toBe(
			400,
		)
	})

	test('a device the push service answers 410 or 404 for is removed; the others still get it', async () => {
		const agent = await member()
		const [gone, unknown, fine] = [await device(agent), await device(agent), await device(agent)]
		fake.gone(idOf(gone.subscription))
		fake.notFound(idOf(unknown.subscription))
		const row = await notification(agent.user.id, agent.workspace.id)
		await sendPush(db(), api.config, { notificationId: row.id })
		const left = await db().selectFrom('pushSubscriptions').select('id').where('userId', '=', agent.user.id).execute()
		expect(left.map((entry) => entry.id)).toEqual([fine.id])
		expect(pushesTo(fine.subscription)).toHaveLength(1)
		expect(await pushedAt(row.id)).not.toBeNull()
	})

	test('a 429 is retried when the service says, and each device gets the notification once', async () => {
		const agent = await member()
		const [throttled, fine] = [await device(agent), await device(agent)]
		fake.throttle(idOf(throttled.subscription), 1, 1)
		const row = await notification(agent.user.id, agent.workspace.id)
		const started = Date.now()
		await sendPush(db(), api.config, { notificationId: row.id })
		expect(pushesTo(fine.subscription)).toHaveLength(1)
		expect(pushesTo(throttled.subscription)).toHaveLength(0)
		// The runner takes the retry the job left, for the throttled device alone, after Retry-After.
		await fake.waitForPush((push) => push.subscriptionId === idOf(throttled.subscription))
		expect(Date.now() - started).toBeGreaterThanOrEqual(900)
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(pushesTo(throttled.subscription)).toHaveLength(1)
		expect(pushesTo(fine.subscription)).toHaveLength(1)
	})

	test('a loopback or private endpoint is refused without WEBHOOK_ALLOW_PRIVATE, at subscription and at send', async () => {
		const agent = await member()
		const refused = await strictApi.request('POST', '/v1/user/push-subscriptions', {
			body: fake.subscribe(),
			headers: { ...agent.auth, 'Accept-Language': 'fr' },
		})
		expect(refused.status).toBe(422)
		expect(refused.body).toMatchObject({
			details: { fields: { endpoint: ["Cette adresse push mène à un réseau privé ou local, ce qui n'est pas autorisé."] } },
		})
		for (const endpoint of ['https://10.0.0.8/push/x', 'https://[::ffff:169.254.169.254]/push/x', 'https://localhost:8443/push/x']) {
			const answer = await strictApi.request('POST', '/v1/user/push-subscriptions', { body: { ...fake.subscribe(), endpoint }, headers: agent.auth })
			expect({ endpoint, status: answer.status }).toEqual({ endpoint, status: 422 })
		}
		const plain = await strictApi.request('POST', '/v1/user/push-subscriptions', {
			body: { ...fake.subscribe(), endpoint: 'http://push.example.com/x' },
			headers: agent.auth,
		})
		expect(plain.status).toBe(400)
		expect(plain.body).toMatchObject({ details: { fields: { endpoint: ['A push address must be an https:// address.'] } } })
		const badKey = await strictApi.request('POST', '/v1/user/push-subscriptions', {
			body: { endpoint: 'https://8.8.8.8/push/x', keys: { p256dh: 'BAAA', auth: 'AAAAAAAAAAAAAAAAAAAAAA' } },
			headers: agent.auth,
		})
		expect(badKey.body).toMatchObject({ statusCode: 400, details: { fields: { 'keys.p256dh': ['This browser key is not valid.'] } } })
		expect(await db().selectFrom('pushSubscriptions').select('id').where('userId', '=', agent.user.id).execute()).toEqual([])

		// Stored while it was allowed: at send time the guard refuses it, and the device is kept (nothing was said of it).
		const { subscription } = await device(agent)
		const row = await notification(agent.user.id, agent.workspace.id)
		await sendPush(db(), strictApi.config, { notificationId: row.id })
		expect(pushesTo(subscription)).toEqual([])
		expect(await db().selectFrom('pushSubscriptions').select('id').where('userId', '=', agent.user.id).execute()).toHaveLength(1)
	})

	test('a test push in the caller’s language says what happened; another user’s device is not theirs to test, list or remove', async () => {
		const agent = await member()
		const mine = await device(agent)
		const tested = await api.request('POST', `/v1/user/push-subscriptions/${mine.id}/test`, { headers: { ...agent.auth, 'Accept-Language': 'ar' } })
		expect(tested.body).toEqual({ result: 'sent', status: 201 })
		const push = await fake.waitForPush((entry) => entry.subscriptionId === idOf(mine.subscription))
		expect(JSON.parse(push.payload)).toEqual({
			title: 'إشعار تجريبي',
			body: 'إشعارات المتصفح تعمل على هذا الجهاز.',
			url: 'http://crm.test/ar-eg/dashboard/notifications/settings',
			tag: 'push-test',
		})

		const intruder = await member()
		for (const [method, path] of [
			['DELETE', `/v1/user/push-subscriptions/${mine.id}`],
			['POST', `/v1/user/push-subscriptions/${mine.id}/test`],
			['DELETE', '/v1/user/push-subscriptions/not-a-uuid'],
		] as const) {
			const answer = await api.request(method, path, { headers: intruder.auth })
			expect({ path, status: answer.status }).toEqual({ path, status: 404 })
		}
		expect((await api.request('GET', '/v1/user/push-subscriptions', { headers: intruder.auth })).body).toMatchObject({ devices: [] })
		expect(pushesTo(mine.subscription)).toHaveLength(1)

		fake.gone(idOf(mine.subscription))
		expect((await api.request('POST', `/v1/user/push-subscriptions/${mine.id}/test`, { headers: agent.auth })).body).toEqual({ result: 'removed', status: 410 })
		expect((await api.request('DELETE', `/v1/user/push-subscriptions/${mine.id}`, { headers: agent.auth })).status).toBe(404)

		const again = await device(agent)
		expect((await api.request('DELETE', `/v1/user/push-subscriptions/${again.id}`, { headers: agent.auth })).status).toBe(204)
		expect((await api.request('GET', '/v1/user/push-subscriptions', { headers: agent.auth })).body).toMatchObject({ devices: [] })
	})
})
