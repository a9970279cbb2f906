import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUser } from './harness.ts'
import { sessionCookie, startPageServer, type PageServer } from './page-server.ts'
import { createTeam, currentWorkspaceOf, rolesIn, type Team } from './workspaces-fixtures.ts'

/**
 * An invitation link opened while signed in never joins (issue 26, item 3): any site could link to
 * it and enrol its visitors in a look-alike workspace, then learn their names and addresses. The
 * pages send to a confirmation page that joins only by its POST.
 */

let server: PageServer
beforeAll(async () => {
	server = await startPageServer()
})
afterAll(() => server?.close())

async function inviteCode(team: Team): Promise<string> {
	const response = await fetch(`${server.url}/v1/workspaces/${team.workspace.id}/invitations`, {
		method: 'POST',
		headers: { ...team.admin.auth, 'Content-Type': 'application/json' },
		body: JSON.stringify({ method: 'link', role: 'agent' }),
	})
	expect(response.status).toBe(201)
	return ((await response.json()) as { code: string }).code
}

const page = (path: string, cookie: string) => fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' })

describe('an invitation opened while signed in', () => {
	test('no GET joins, whatever page carries the invitation; the auth pages send to the confirmation page', async () => {
		const team = await createTeam('Look-alike Co')
		const code = await inviteCode(team)
		const visitor = (await createTeam('Home Co')).agent
		const cookie = await sessionCookie(visitor.token)
		const query = `agent_invite_code=${code}&agent_invite_method=link`
		const confirmation = `/en-us/dashboard/invitations/accept?${query}`

		for (const path of [
			`/en-us/auth/login?${query}`,
			`/fr-x/auth/signup?${query}`,
			`/ar-eg/auth/forgot-password?${query}`,
			`/en-us/auth/login?redirect=${encodeURIComponent(`/en-us/dashboard?${query}`)}`,
			`/en-us/auth/signup?redirect=${encodeURIComponent(confirmation)}`,
		]) {
			const response = await page(path, cookie)
			expect(response.status, path).toBe(302)
			const locale = path.split('/')[1]
			expect(response.headers.get('location'), path).toBe(`/${locale}/dashboard/invitations/accept?${query}`)
		}

		// The confirmation page itself, and its data as the page's JavaScript reads it.
		for (const path of [confirmation, `/en-us/dashboard/invitations/accept.data?${query}`]) {
			const response = await page(path, cookie)
			expect(response.status, path).toBe(200)
			const body = await response.text()
			expect(body).toContain('Look-alike Co')
			expect(body).toContain('Admin of Look-alike Co')
		}
		expect(await rolesIn(team.workspace.id)).not.toHaveProperty(visitor.user.id)
		expect(await currentWorkspaceOf(visitor.user.id)).toBe(visitor.user.currentWorkspaceId)
	})

	test('signing in with an invitation lands on the confirmation page, not in the workspace; only its POST joins, and the user stays where they were', async () => {
		const team = await createTeam('Confirm Co')
		const code = await inviteCode(team)
		const home = await createTeam('Stay Co')
		const user = home.agent
		const query = `agent_invite_code=${code}&agent_invite_method=link`
		const login = await fetch(`${server.url}/en-us/auth/login?${query}`, {
			method: 'POST',
			body: new URLSearchParams({ email: user.user.email, password: user.password }),
			redirect: 'manual',
		})
		expect(login.status).toBe(302)
		expect(login.headers.get('location')).toBe(`/en-us/dashboard/invitations/accept?${query}`)
		expect(await rolesIn(team.workspace.id)).not.toHaveProperty(user.user.id)

		const cookie = await sessionCookie(user.token)
		const join = await fetch(`${server.url}/en-us/dashboard/invitations/accept?${query}`, {
			method: 'POST',
			headers: { Cookie: cookie },
			body: new URLSearchParams({ intent: 'join', code, method: 'link' }),
			redirect: 'manual',
		})
		expect(join.status).toBe(302)
		expect(join.headers.get('location')).toBe(`/en-us/dashboard/invitations/accept?joined=${team.workspace.id}`)
		expect((await rolesIn(team.workspace.id))[user.user.id]).toBe('agent')
		expect(await currentWorkspaceOf(user.user.id)).toBe(home.workspace.id)
	})

	test('an unusable invitation is refused on the page with the API’s words, in the page’s language', async () => {
		const visitor = await createUser()
		const response = await page(
			'/fr-x/dashboard/invitations/accept?agent_invite_code=no-such-code&agent_invite_method=link',
			await sessionCookie(visitor.token),
		)
		expect(response.status).toBe(404)
		const body = await response.text()
		expect(body).toContain('Cette invitation ne peut pas être utilisée')
		expect(body).toContain('Ce lien d’invitation n’est pas valide.')
	})
})

describe('a redirect after sign-in', () => {
	test('one that resolves to another site lands on the dashboard', async () => {
		const { agent } = await createTeam()
		const cookie = await sessionCookie(agent.token)
		for (const target of [
			'/.//evil.example/phish',
			'/..//evil.example',
			'/./\\evil.example',
			'/%2e%2e//evil.example',
			'/\t/evil.example',
			'https:evil.example',
		]) {
			const response = await page(`/en-us/auth/login?redirect=${encodeURIComponent(target)}`, cookie)
			expect(response.headers.get('location'), target).toBe('/en-us/dashboard')
		}
	})
})
