import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AuthAnswer, linkIn, strongPassword, visitor, waitForMail } from './auth-support.ts'
import { createUser, startApi, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type SessionAnswer = {
	id: string
	browser: string | null
	system: string | null
	userAgent: string | null
	ip: string | null
	createdAt: string
	lastSeenAt: string
	current: boolean
}

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

async function signIn(email: string, password: string, userAgent: string) {
	const who = visitor(api)
	const answer = await who.post('/login', { email, password }, { 'User-Agent': userAgent })
	expect(answer.status).toBe(200)
	return { ip: who.ip, auth: { Authorization: `Bearer ${(answer.body as AuthAnswer).access_token}` } }
}

async function sessionsOf(auth: Record<string, string>) {
	const answer = await visitor(api, { auth }).request('GET', '/sessions')
	return { status: answer.status, sessions: (answer.body as { sessions?: SessionAnswer[] }).sessions ?? [] }
}

describe('active sessions', () => {
	test('the list: browser and system from the agent, address, times, this one marked; another user sees none of them', async () => {
		const { user, password } = await createUser()
		const laptop = await signIn(user.email, password, firefox)
		const phone = await signIn(user.email, password, iphone)
		const { status, sessions } = await sessionsOf(phone.auth)
		expect(status).toBe(200)
		const mine = sessions.filter((session) => session.ip === laptop.ip || session.ip === phone.ip)
		expect(mine).toHaveLength(2)
		expect(mine.find((session) => session.current)).toMatchObject({
			browser: 'Safari 17',
			system: 'iOS 17',
			ip: phone.ip,
			userAgent: `${iphone.slice(0, 119)}…`,
		})
		expect(mine.find((session) => !session.current)).toMatchObject({ browser: 'Firefox 125', system: 'Linux', ip: laptop.ip, userAgent: firefox })
		for (const session of sessions) expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt))
		expect(sessions.filter((session) => session.current)).toHaveLength(1)

		const stranger = await createUser()
		const theirs = await sessionsOf(stranger.auth)
		expect(theirs.sessions.map((session) => session.id)).not.toContain(mine[0]!.id)
		expect((await visitor(api).request('GET', '/sessions')).status).toBe(401)
	})

	test('signing out one session ends it at once; another user’s session is not found', async () => {
		const { user, password } = await createUser()
		const laptop = await signIn(user.email, password, firefox)
		const phone = await signIn(user.email, password, iphone)
		const laptopSession = (await sessionsOf(laptop.auth)).sessions.find((session) => session.current)!
		const stranger = await createUser()
		const refused = await visitor(api, { auth: stranger.auth }).request('DELETE', `/sessions/${laptopSession.id}`)
		expect(refused.status).toBe(404)
		expect((refused.body as { message: string }).message).toBe('This session does not exist or has already ended.')
		expect((await sessionsOf(laptop.auth)).status).toBe(200)

		expect((await visitor(api, { auth: phone.auth }).request('DELETE', `/sessions/${laptopSession.id}`)).status).toBe(204)
		expect((await sessionsOf(laptop.auth)).status).toBe(401)
		expect((await sessionsOf(phone.auth)).status).toBe(200)
		expect((await visitor(api, { auth: phone.auth }).request('DELETE', '/sessions/not-a-uuid')).status).toBe(400)
	})

	test('sign out everywhere else keeps only this session', async () => {
		const { user, password, auth } = await createUser()
		const laptop = await signIn(user.email, password, firefox)
		const phone = await signIn(user.email, password, iphone)
		expect((await visitor(api, { auth: phone.auth }).post('/sessions/revoke-others')).status).toBe(204)
		expect((await sessionsOf(laptop.auth)).status).toBe(401)
		expect((await sessionsOf(auth)).status).toBe(401)
		const left = await sessionsOf(phone.auth)
		expect(left.sessions).toHaveLength(1)
		expect(left.sessions[0]!.current).toBe(true)
	})

	test('a password change ends every other session; a reset ends them all', async () => {
		const { user, password } = await createUser()
		const laptop = await signIn(user.email, password, firefox)
		const phone = await signIn(user.email, password, iphone)
		expect((await visitor(api, { auth: phone.auth }).post('/change-password', { currentPassword: password, password: strongPassword })).status).toBe(204)
		expect((await sessionsOf(laptop.auth)).status).toBe(401)
		expect((await sessionsOf(phone.auth)).sessions).toHaveLength(1)

		await visitor(api).post('/forgot-password', { email: user.email })
		const { token } = linkIn(await waitForMail(api, user.email), 'reset-password')
		expect((await visitor(api).post('/reset-password', { token, password: 'An0ther-horse' })).status).toBe(200)
		expect((await sessionsOf(phone.auth)).status).toBe(401)
	})
})
