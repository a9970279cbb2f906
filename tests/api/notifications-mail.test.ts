import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobPayloads } from '#api/jobs/queue.ts'
import { createMailer, type Mailer } from '#api/mail/mailer.ts'
import { mailAttempts } from '#api/mail/mailer.ts'
import { mailBatchMs, mailedLinesAtMost, notificationMailKey, queueNotificationMail } from '#api/notifications/mail-queue.ts'
import { unsubscribeToken } from '#api/notifications/unsubscribe-token.ts'
import { notify as notifyMembers } from '#api/notifications/notify.ts'
import { notificationAddress, notificationLine } from '#api/notifications/words.ts'
import { silentRealtime } from '#api/realtime/publisher.ts'
import { type NotificationKind, type NotificationValues } from '#common/notifications.ts'
import { inject } from 'vitest'
import { startFakeSmtp, type AcceptedMail, type FakeSmtp } from '../fakes/smtp.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'

// The mail of notifications (docs/decisions/025-notifications.md): queued by `notify` with a key that
// keeps the first one's time, so five minutes of them make one job; the job is run by hand here
// (its time is five minutes ahead), except once through a real runner, and mails to a fake SMTP server.
let smtp: FakeSmtp
let api: TestApi
let mailer: Mailer
const quiet = { info: () => {}, debug: () => {}, error: () => {} }
beforeAll(async () => {
	smtp = await startFakeSmtp()
	api = await startApi({}, { mail: false })
	mailer = createMailer({ ...api.config, SMTP_URL: smtp.url }, quiet)
})
afterAll(async () => {
	await api.close()
	await smtp.close()
})

type Member = { userId: string; workspaceId: string }
type JobRow = { payload: JobPayloads['mail-notifications']; runAt: Date; maxAttempts: number }

async function memberOf(workspaceId: string, options: { locale?: string; name?: string } = {}) {
	const { user } = await createUser({ workspaceId, name: options.name ?? 'Nadia' })
	if (options.locale) await testDb().updateTable('users').set({ locale: options.locale }).where('id', '=', user.id).execute()
	return { user, member: { userId: user.id, workspaceId } }
}

/** A notification as `notify` writes it, and its mail queued in the same transaction. */
async function notify(member: Member, kind: NotificationKind, values: NotificationValues) {
	return testDb()
		.transaction()
		.execute(async (trx) => {
			const row = await trx
				.insertInto('notifications')
				.values({ ...member, kind, values })
				.returning(['id', 'kind', 'values'])
				.executeTakeFirstOrThrow()
			await queueNotificationMail(trx, [member])
			return row
		})
}

async function pendingJobs(member: Member): Promise<JobRow[]> {
	const { rows } =
		await sql<JobRow>`select payload, run_at as "runAt", max_attempts as "maxAttempts" from graphile_worker._private_jobs where key = ${notificationMailKey(member)}`.execute(
			testDb(),
		)
	return rows
}

/** Runs the member's pending job as the queue would once due (and takes it off the queue). */
async function runJob(member: Member, using: Mailer = mailer) {
	const [job] = await pendingJobs(member)
	expect(job, 'a pending mail-notifications job').toBeDefined()
	await jobHandlers['mail-notifications'](job!.payload, { db: testDb(), realtime: silentRealtime, config: api.config, mailer: using })
	await sql`select graphile_worker.remove_job(${notificationMailKey(member)})`.execute(testDb())
}

const mailsTo = (email: string) => smtp.accepted.filter((mail) => mail.recipients.includes(email))
const tokenIn = (mail: AcceptedMail) => new URL(/^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')![1]!).searchParams.get('token')!
const oneClick = (token: string, headers: Record<string, string> = {}) =>
	api.request('POST', `/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
		rawBody: 'List-Unsubscribe=One-Click',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
	})
const emailPreference = async (member: Member, kind: NotificationKind) =>
	(
		await testDb()
			.selectFrom('notificationPreferences')
			.select('enabled')
			.where('userId', '=', member.userId)
			.where('workspaceId', '=', member.workspaceId)
			.where('kind', '=', kind)
			.where('medium', '=', 'email')
			.executeTakeFirst()
	)?.enabled

describe('batching', () => {
	test('two notifications within five minutes make one job and one mail with both lines, each with its link', async () => {
		const workspace = await createWorkspace('Acme support')
		const { user, member } = await memberOf(workspace.id)
		const before = Date.now()
		const first = await notify(member, 'assigned', { number: 41, contact: 'Karim' })
		const [queued] = await pendingJobs(member)
		expect(queued!.runAt.getTime()).toBeGreaterThanOrEqual(before + mailBatchMs - 1000)
		expect(queued!.runAt.getTime()).toBeLessThanOrEqual(Date.now() + mailBatchMs)
		expect(queued!.maxAttempts).toBe(mailAttempts)
		await new Promise((resolve) => setTimeout(resolve, 50))
		const second = await notify(member, 'mentioned', { number: 42, actor: 'Salma' })

		// The second add kept the first one's time: one job, due five minutes after the first notification.
		const jobs = await pendingJobs(member)
		expect(jobs).toHaveLength(1)
		expect(jobs[0]!.runAt.getTime()).toBe(queued!.runAt.getTime())
		expect(jobs[0]!.payload).toEqual(member)

		await runJob(member)
		const mails = mailsTo(user.email)
		expect(mails).toHaveLength(1)
		const mail = mails[0]!
		expect(mail.subject).toBe('2 new notifications in \u2068Acme support\u2069')
		for (const notification of [first, second]) {
			const line = await notificationLine('en-us', notification)
			const link = notificationAddress(api.config.PUBLIC_URL, 'en-us', notification)
			expect(mail.text).toContain(`${line}\n  ${link}`)
			expect(mail.html).toContain(link)
		}
		expect(mail.text).toContain('Karim')
		expect(mail.text).toContain('Salma')
		expect(mail.text).toContain('You receive this mail because of an account at crm.test.')
		// One "stop" link per kind in the mail, to the web page (a GET there changes nothing).
		expect(mail.text.match(/http:\/\/crm\.test\/en-us\/notifications\/unsubscribe\?token=\S+/g)).toHaveLength(2)
		expect(mail.text).toContain('Stop e-mails for “A conversation assigned to me”: http://crm.test/en-us/notifications/unsubscribe?token=')
		expect(mail.text).toContain('http://crm.test/en-us/dashboard/notifications/settings')

		const marked = await testDb().selectFrom('notifications').select('mailedAt').where('id', 'in', [first.id, second.id]).execute()
		expect(marked.every((row) => row.mailedAt !== null)).toBe(true)

		// A later notification starts a new batch, which mails only what was not mailed.
		const third = await notify(member, 'assigned', { number: 43, contact: 'Omar' })
		await runJob(member)
		const again = mailsTo(user.email)
		expect(again).toHaveLength(2)
		expect(again[1]!.subject).toBe('A new notification in \u2068Acme support\u2069')
		expect(again[1]!.text).toContain(await notificationLine('en-us', third))
		expect(again[1]!.text).not.toContain('Karim')
	})

	test('notify() queues the mail of the members who get the kind by e-mail, and of nobody else', async () => {
		const workspace = await createWorkspace('Through notify')
		const [{ user: wants, member: wantsMail }, { member: optedOut }] = await Promise.all([memberOf(workspace.id), memberOf(workspace.id)])
		await testDb()
			.insertInto('notificationPreferences')
			.values({ ...optedOut, kind: 'assigned', medium: 'email', enabled: false })
			.execute()
		await testDb()
			.transaction()
			.execute((trx) =>
				notifyMembers(trx, [
					{ ...wantsMail, kind: 'assigned', values: { number: 21, contact: 'Via notify' } },
					{ ...optedOut, kind: 'assigned', values: { number: 21, contact: 'Via notify' } },
					// Push and the app by default, not e-mail.
					{ ...wantsMail, kind: 'message', values: { number: 22, contact: 'No mail' } },
				]),
			)
		expect(await pendingJobs(wantsMail)).toHaveLength(1)
		expect(await pendingJobs(optedOut)).toEqual([])
		await runJob(wantsMail)
		const [mail, ...others] = mailsTo(wants.email)
		expect(others).toEqual([])
		expect(mail!.text).toContain('Via notify')
		expect(mail!.text).not.toContain('No mail')
	})

	test('what was read in the app before the job runs is not mailed, and nothing read makes no mail', async () => {
		const workspace = await createWorkspace('Reader')
		const { user, member } = await memberOf(workspace.id)
		const read = await notify(member, 'assigned', { number: 1, contact: 'Already read' })
		await notify(member, 'assigned', { number: 2, contact: 'Still unread' })
		await testDb().updateTable('notifications').set({ readAt: new Date() }).where('id', '=', read.id).execute()
		await runJob(member)
		expect(mailsTo(user.email)).toHaveLength(1)
		expect(mailsTo(user.email)[0]!.text).not.toContain('Already read')
		expect(mailsTo(user.email)[0]!.text).toContain('Still unread')

		const { user: caughtUp, member: caughtUpMember } = await memberOf(workspace.id)
		await notify(caughtUpMember, 'assigned', { number: 3, contact: 'Seen' })
		await testDb().updateTable('notifications').set({ readAt: new Date() }).where('userId', '=', caughtUp.id).execute()
		await runJob(caughtUpMember)
		expect(mailsTo(caughtUp.email)).toEqual([])
	})

	test('a kind whose e-mail is off is left out; a kind off by default is mailed once turned on', async () => {
		const workspace = await createWorkspace('Choosy')
		const { user, member } = await memberOf(workspace.id)
		await testDb()
			.insertInto('notificationPreferences')
			.values([
				{ ...member, kind: 'mentioned', medium: 'email', enabled: false },
				{ ...member, kind: 'message', medium: 'email', enabled: true },
			])
			.execute()
		await notify(member, 'mentioned', { number: 5, actor: 'Muted mention' })
		await notify(member, 'replyWaiting', { number: 6, contact: 'Off by default', minutes: 15 })
		await notify(member, 'message', { number: 7, contact: 'Chosen', count: 2 })
		await runJob(member)
		const [mail, ...others] = mailsTo(user.email)
		expect(others).toEqual([])
		expect(mail!.subject).toBe('A new notification in \u2068Choosy\u2069')
		expect(mail!.text).toContain('2 new messages from \u2068Chosen\u2069 in conversation #7')
		expect(mail!.text).not.toContain('Muted mention')
		expect(mail!.text).not.toContain('Off by default')

		// Only off kinds waiting: no mail at all.
		await notify(member, 'mentioned', { number: 8, actor: 'Muted again' })
		await runJob(member)
		expect(mailsTo(user.email)).toHaveLength(1)
	})

	test('in the member’s language: an Arabic mail has Arabic lines, right to left', async () => {
		const workspace = await createWorkspace('الدعم')
		const { user, member } = await memberOf(workspace.id, { locale: 'ar-eg', name: 'ليلى' })
		const assigned = await notify(member, 'assigned', { number: 9, contact: 'Karim' })
		await notify(member, 'mentioned', { number: 10, actor: 'سلمى' })
		await runJob(member)
		const [mail] = mailsTo(user.email)
		expect(mail!.language).toBe('ar-eg')
		expect(mail!.subject).toBe('إشعاران جديدان في \u2068الدعم\u2069')
		expect(mail!.text).toContain('أُسندت إليك المحادثة رقم 9 مع \u2068Karim\u2069')
		expect(mail!.text).toContain(await notificationLine('ar-eg', assigned))
		expect(mail!.text).toContain('http://crm.test/ar-eg/notifications/unsubscribe?token=')
		expect(mail!.text).toContain('أوقف رسائل البريد عن «محادثة أُسندت إليّ»')
		expect(mail!.html).toContain('<html lang="ar-EG" dir="rtl">')
	})

	test('a member of two workspaces gets one mail per workspace, each with its own notifications', async () => {
		const [north, south] = await Promise.all([createWorkspace('North desk'), createWorkspace('South desk')])
		const { user, member: inNorth } = await memberOf(north.id)
		await testDb().insertInto('members').values({ workspaceId: south.id, userId: user.id, role: 'agent' }).execute()
		const inSouth = { userId: user.id, workspaceId: south.id }
		await notify(inNorth, 'assigned', { number: 11, contact: 'Northerner' })
		await notify(inSouth, 'assigned', { number: 12, contact: 'Southerner' })
		await notify(inSouth, 'mentioned', { number: 13, actor: 'South colleague' })
		expect(await pendingJobs(inNorth)).toHaveLength(1)
		expect(await pendingJobs(inSouth)).toHaveLength(1)

		await runJob(inNorth)
		await runJob(inSouth)
		const [northMail, southMail, ...others] = mailsTo(user.email)
		expect(others).toEqual([])
		expect(northMail!.subject).toBe('A new notification in \u2068North desk\u2069')
		expect(northMail!.text).toContain('Northerner')
		expect(northMail!.text).not.toContain('South')
		expect(southMail!.subject).toBe('2 new notifications in \u2068South desk\u2069')
		expect(southMail!.text).not.toContain('Northerner')

		// Each mail's unsubscribe turns off its own workspace's e-mails only.
		expect((await oneClick(tokenIn(southMail!))).status).toBe(200)
		expect(await emailPreference(inSouth, 'assigned')).toBe(false)
		expect(await emailPreference(inNorth, 'assigned')).toBeUndefined()
	})

	test('a long batch lists the first twenty and counts the rest, all marked mailed', async () => {
		const workspace = await createWorkspace('Busy')
		const { user, member } = await memberOf(workspace.id)
		for (let number = 1; number <= mailedLinesAtMost + 2; number++) await notify(member, 'assigned', { number, contact: `Customer ${number}` })
		await runJob(member)
		const [mail] = mailsTo(user.email)
		expect(mail!.subject).toBe(`${mailedLinesAtMost + 2} new notifications in \u2068Busy\u2069`)
		expect(mail!.text).toContain(`\u2068Customer ${mailedLinesAtMost}\u2069`)
		expect(mail!.text).not.toContain(`\u2068Customer ${mailedLinesAtMost + 1}\u2069`)
		expect(mail!.text).toContain('And 2 more in the app\n  http://crm.test/en-us/dashboard/notifications')
		const unmailed = await testDb().selectFrom('notifications').select('id').where('userId', '=', user.id).where('mailedAt', 'is', null).execute()
		expect(unmailed).toEqual([])
	})

	test('a mail the server refuses is not marked mailed: the retry sends it, once', async () => {
		const workspace = await createWorkspace('Retry')
		const { user, member } = await memberOf(workspace.id)
		const row = await notify(member, 'assigned', { number: 14, contact: 'Patient' })
		const [job] = await pendingJobs(member)
		const helpers = { db: testDb(), realtime: silentRealtime, config: api.config, mailer }
		smtp.refuse({ code: 451, at: 'data' })
		try {
			await expect(jobHandlers['mail-notifications'](job!.payload, helpers)).rejects.toThrow(/451/)
		} finally {
			smtp.accept()
		}
		const after = await testDb().selectFrom('notifications').select('mailedAt').where('id', '=', row.id).executeTakeFirstOrThrow()
		expect(after.mailedAt).toBeNull()
		await jobHandlers['mail-notifications'](job!.payload, helpers)
		await jobHandlers['mail-notifications'](job!.payload, helpers)
		expect(mailsTo(user.email)).toHaveLength(1)
		await runJob(member)
	})

	test('the queue runs the job once it is due', async () => {
		const workspace = await createWorkspace('Runner')
		const { user, member } = await memberOf(workspace.id)
		await notify(member, 'assigned', { number: 15, contact: 'Queued' })
		await sql`update graphile_worker._private_jobs set run_at = now() where key = ${notificationMailKey(member)}`.execute(testDb())
		const runner = await startJobRunner({
			db: testDb(),
			databaseUrl: inject('databaseUrl'),
			handlers: { 'mail-notifications': jobHandlers['mail-notifications'] },
			log: quiet,
			config: { ...api.config, SMTP_URL: smtp.url },
			pollInterval: 100,
		})
		try {
			const mail = await smtp.waitForMail((accepted) => accepted.recipients.includes(user.email))
			expect(mail.text).toContain('Queued')
		} finally {
			await runner.stop()
		}
	})
})

describe('unsubscribe', () => {
	test('the headers: List-Unsubscribe to the API’s one-click address, and List-Unsubscribe-Post (RFC 8058)', async () => {
		const workspace = await createWorkspace('Headers')
		const { user, member } = await memberOf(workspace.id)
		await notify(member, 'assigned', { number: 16 })
		await notify(member, 'queueWaiting', { number: 17, team: 'Billing', minutes: 10 })
		await runJob(member)
		const [mail] = mailsTo(user.email)
		expect(mail!.headers['list-unsubscribe']).toMatch(/^<http:\/\/crm\.test\/v1\/notifications\/unsubscribe\?token=[\w.%-]+>$/)
		expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		// The header's token holds every kind of the mail.
		const preview = await api.request('GET', `/v1/notifications/unsubscribe?token=${encodeURIComponent(tokenIn(mail!))}`)
		expect(preview.status).toBe(200)
		expect(preview.body).toEqual({ workspace: { id: workspace.id, name: 'Headers' }, kinds: ['assigned', 'queueWaiting'] })
	})

	test('one click turns the kinds off; a GET changes nothing; they are then not mailed', async () => {
		const workspace = await createWorkspace('Clicker')
		const { user, member } = await memberOf(workspace.id)
		await notify(member, 'assigned', { number: 18, contact: 'First' })
		await runJob(member)
		const token = tokenIn(mailsTo(user.email)[0]!)

		expect((await api.request('GET', `/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`)).status).toBe(200)
		expect(await emailPreference(member, 'assigned')).toBeUndefined()

		const clicked = await oneClick(token)
		expect(clicked.status).toBe(200)
		expect(clicked.body).toEqual({ workspace: { id: workspace.id, name: 'Clicker' }, kinds: ['assigned'] })
		expect(await emailPreference(member, 'assigned')).toBe(false)
		expect(await emailPreference(member, 'mentioned')).toBeUndefined()
		// Twice is still done; multipart, the other encoding a client may choose, too.
		const boundary = 'x-boundary'
		const multipart = await api.request('POST', `/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
			rawBody: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
			headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
		})
		expect(multipart.status).toBe(200)

		await notify(member, 'assigned', { number: 19, contact: 'After' })
		await notify(member, 'mentioned', { number: 20, actor: 'Still on' })
		await runJob(member)
		const second = mailsTo(user.email)[1]!
		expect(second.text).not.toContain('After')
		expect(second.text).toContain('Still on')
	})

	test('a kind off by default leaves no row behind when its link is clicked', async () => {
		const workspace = await createWorkspace('Defaults')
		const { member } = await memberOf(workspace.id)
		await testDb()
			.insertInto('notificationPreferences')
			.values({ ...member, kind: 'message', medium: 'email', enabled: true })
			.execute()
		const token = unsubscribeToken(api.config.SESSION_SECRET, { ...member, kinds: ['message', 'assigned'] })
		expect((await oneClick(token)).status).toBe(200)
		expect(await emailPreference(member, 'message')).toBeUndefined()
		expect(await emailPreference(member, 'assigned')).toBe(false)
	})

	test('a forged token, another user’s, another secret’s or none is refused, translated, and changes nothing', async () => {
		const workspace = await createWorkspace('Forgery')
		const { member } = await memberOf(workspace.id)
		const { member: victim } = await memberOf(workspace.id)
		const genuine = unsubscribeToken(api.config.SESSION_SECRET, { ...member, kinds: ['assigned'] })
		const [payload, signature] = genuine.split('.')
		// The same signature on a payload naming someone else.
		const otherUser = `${Buffer.from(`${victim.userId}:${workspace.id}:assigned`).toString('base64url')}.${signature}`
		const moreKinds = `${Buffer.from(`${member.userId}:${workspace.id}:assigned,mentioned`).toString('base64url')}.${signature}`
		const otherSecret = unsubscribeToken('another-secret-of-at-least-32-characters', { ...victim, kinds: ['assigned'] })
		const flipped = `${payload}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`
		for (const token of [otherUser, moreKinds, otherSecret, flipped, 'not-a-token', `${payload}.${signature}.extra`]) {
			const refused = await oneClick(token, { 'Accept-Language': 'fr' })
			expect(refused.status, token).toBe(400)
			expect(refused.body).toEqual({
				message: 'Ce lien de désabonnement n’est pas valide. Choisissez les e-mails que vous recevez dans vos paramètres de notification.',
				statusCode: 400,
				details: null,
			})
		}
		const missing = await api.request('POST', '/v1/notifications/unsubscribe', {
			rawBody: 'List-Unsubscribe=One-Click',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		})
		expect(missing.status).toBe(400)
		expect(await emailPreference(victim, 'assigned')).toBeUndefined()
		expect(await emailPreference(member, 'mentioned')).toBeUndefined()

		// Other bodies than the RFC's forms and JSON are still refused.
		const text = await api.request('POST', `/v1/notifications/unsubscribe?token=${encodeURIComponent(genuine)}`, {
			rawBody: 'x',
			headers: { 'Content-Type': 'text/plain' },
		})
		expect(text.status).toBe(415)
	})

	test('a member who left the workspace gets a 404 in their language', async () => {
		const workspace = await createWorkspace('Left')
		const { member } = await memberOf(workspace.id)
		const token = unsubscribeToken(api.config.SESSION_SECRET, { ...member, kinds: ['assigned'] })
		await testDb().deleteFrom('members').where('userId', '=', member.userId).where('workspaceId', '=', member.workspaceId).execute()
		const gone = await oneClick(token, { 'Accept-Language': 'ar' })
		expect(gone.status).toBe(404)
		expect((gone.body as { message: string }).message).toBe('لم تعد عضوًا في مساحة العمل هذه: لن تصلك منها إشعارات بعد الآن.')
	})
})
