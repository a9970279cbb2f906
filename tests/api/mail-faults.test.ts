import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type JobRunner } from '#api/jobs/queue.ts'
import { mailAttempts } from '#api/mail/mailer.ts'
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp.ts'
import { type AuthAnswer, strongPassword, visitor } from './auth-support.ts'
import { startApi, startMailRunner, testDb, uniqueEmail, type TestApi } from './harness.ts'
import { createTeam } from './workspaces-fixtures.ts'

// Mail goes through the job queue (docs/decisions/018-faults.md): a request queues it and answers; the
// `send-mail` job talks to SMTP, and a refusal is retried with graphile-worker's backoff (e^attempts s).
let smtp: FakeSmtp
let api: TestApi
let runner: JobRunner
beforeAll(async () => {
	smtp = await startFakeSmtp()
	api = await startApi({ SMTP_URL: smtp.url }, { mail: false })
	runner = await startMailRunner(api.config)
})
afterAll(async () => {
	await runner.stop()
	await api.close()
	await smtp.close()
})

type MailJobRow = { attempts: number; maxAttempts: number; lastError: string | null }

/** The pending `send-mail` job of `key`, if any (graphile-worker deletes a job once it succeeded). */
async function mailJob(key: string): Promise<MailJobRow | undefined> {
	const { rows } =
		await sql<MailJobRow>`select attempts, max_attempts as "maxAttempts", last_error as "lastError" from graphile_worker.jobs where key = ${key}`.execute(
			testDb(),
		)
	return rows[0]
}

/** Waits (up to 15 s) for `check` to hold: the job runs in its own time. */
async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
	for (let waited = 0; waited < 15_000; waited += 50) {
		const value = await check()
		if (value) return value
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
	throw new Error('timed out')
}

/** The job of `key` once an attempt failed (it then waits for its retry; `attempts` counts from when a worker takes it). */
const refusedOnce = (key: string) =>
	until(async () => {
		const job = await mailJob(key)
		return job?.lastError ? job : undefined
	})
const mailsTo = (address: string) => smtp.accepted.filter((mail) => mail.recipients.includes(address))

describe('while the mail server refuses', () => {
	test('sign-up succeeds, the mail is retried across a restart of the worker and arrives once', async () => {
		smtp.refuse({ code: 421, at: 'greeting' })
		const email = uniqueEmail('refused')
		const response = await visitor(api).post('/register', { name: 'Patient', email, password: strongPassword })
		expect(response.status).toBe(201)
		const { user } = response.body as AuthAnswer
		const key = `mail:verifyEmail:${user.id}`

		const failed = await refusedOnce(key)
		expect(failed.lastError).toMatch(/421/)
		expect(failed.maxAttempts).toBe(mailAttempts)
		expect(mailsTo(email)).toEqual([])

		// The process stops and starts again while the job waits for its retry: the job is a row, it survives.
		await runner.stop()
		smtp.accept()
		runner = await startMailRunner(api.config)
		const mail = await smtp.waitForMail((accepted) => accepted.recipients.includes(email))
		expect(mail.subject).toBe('Confirm your e-mail address')
		expect(mail.from).toBe('no-reply@localhost')
		expect(mail.text).toMatch(/http:\/\/crm\.test\/en-us\/auth\/verify-email\?token=[\w-]{43}/)

		// Done means gone from the queue: no attempt is left to send it twice.
		await until(async () => (await mailJob(key)) === undefined)
		expect(mailsTo(email)).toHaveLength(1)
		// Its link works: the token was issued by the attempt that was sent.
		const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')
		expect((await visitor(api).post('/verify-email', { token })).status).toBe(200)
	})

	test('asking for the mail again retries it now, and one mail arrives', async () => {
		smtp.refuse({ code: 451, at: 'mail' })
		const email = uniqueEmail('again')
		const registered = await visitor(api).post('/register', { name: 'Again', email, password: strongPassword })
		const { user, access_token } = registered.body as AuthAnswer
		const key = `mail:verifyEmail:${user.id}`
		expect((await refusedOnce(key)).lastError).toMatch(/451/)

		smtp.accept()
		const again = await visitor(api, { auth: { Authorization: `Bearer ${access_token}` } }).post('/resend-verification')
		expect(again.status).toBe(202)
		// The pending job was replaced (its key), not joined by a second one: run now, from attempt one.
		await smtp.waitForMail((accepted) => accepted.recipients.includes(email))
		await until(async () => (await mailJob(key)) === undefined)
		expect(mailsTo(email)).toHaveLength(1)
	})

	test('an invitation by mail is created, and its mail arrives once the server accepts', async () => {
		smtp.refuse({ code: 451, at: 'data' })
		const team = await createTeam('Refused Co')
		const email = uniqueEmail('invitee')
		const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/invitations`, {
			body: { method: 'email', role: 'agent', email },
			headers: team.owner.auth,
		})
		expect(created.status).toBe(201)
		const { id, code } = created.body as { id: string; code: string }
		const key = `mail:invitation:${id}`
		expect((await refusedOnce(key)).lastError).toMatch(/451/)
		expect(mailsTo(email)).toEqual([])

		smtp.accept()
		const mail = await smtp.waitForMail((accepted) => accepted.recipients.includes(email))
		expect(mail.subject).toBe(`${team.owner.user.name} invited you to join Refused Co`)
		expect(mail.text).toContain(`agent_invite_code=${code}`)
		await until(async () => (await mailJob(key)) === undefined)
		expect(mailsTo(email)).toHaveLength(1)
	})

	test('an invitation revoked while its mail waits is not mailed', async () => {
		smtp.refuse({ code: 421, at: 'greeting' })
		const team = await createTeam('Withdrawn Co')
		const email = uniqueEmail('withdrawn')
		const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/invitations`, {
			body: { method: 'email', role: 'agent', email },
			headers: team.owner.auth,
		})
		const { id } = created.body as { id: string }
		await refusedOnce(`mail:invitation:${id}`)
		expect((await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/invitations/${id}`, { headers: team.owner.auth })).status).toBe(204)

		smtp.accept()
		// The retry finds the invitation withdrawn: the job ends without a mail.
		await until(async () => (await mailJob(`mail:invitation:${id}`)) === undefined)
		expect(mailsTo(email)).toEqual([])
	})

	test('a password reset is answered the same, and mailed once the server accepts', async () => {
		smtp.refuse({ code: 421, at: 'greeting' })
		const email = uniqueEmail('forgetful')
		const registered = await visitor(api).post('/register', { name: 'Forgetful', email, password: strongPassword })
		const { user } = registered.body as AuthAnswer
		const response = await visitor(api).post('/forgot-password', { email })
		expect(response.status).toBe(202)
		const key = `mail:resetPassword:${user.id}`
		await refusedOnce(key)

		smtp.accept()
		const mail = await smtp.waitForMail((accepted) => accepted.recipients.includes(email) && accepted.subject === 'Reset your password')
		expect(mail.text).toMatch(/\/en-us\/auth\/reset-password\?token=/)
		await until(async () => (await mailJob(key)) === undefined)
		expect(mailsTo(email).filter((accepted) => accepted.subject === 'Reset your password')).toHaveLength(1)
	})
})
