import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUser, createWorkspace, testDb } from './harness.ts'
import { sessionCookie, startPageServer, type PageServer } from './page-server.ts'

/** The dashboard's tabs report their focus through the web app (`useFocusPresence`), as the member. */
let server: PageServer
beforeAll(async () => {
	server = await startPageServer()
})
afterAll(() => server?.close())

const focusOf = async (userId: string, workspaceId: string) =>
	(await testDb().selectFrom('members').select('focusedUntil').where('userId', '=', userId).where('workspaceId', '=', workspaceId).executeTakeFirstOrThrow())
		.focusedUntil

describe('the focus resource route', () => {
	test("sets and clears the member's focus in that workspace only; another workspace is refused", async () => {
		const workspace = await createWorkspace('Focus Co')
		const agent = await createUser({ workspaceId: workspace.id, role: 'agent' })
		const cookie = await sessionCookie(agent.token)
		const post = (workspaceId: string, focused: boolean) =>
			fetch(`${server.url}/en-us/dashboard/focus`, {
				method: 'POST',
				headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ workspaceId, focused: String(focused) }),
				redirect: 'manual',
			})

		expect((await post(workspace.id, true)).status).toBe(204)
		expect((await focusOf(agent.user.id, workspace.id))!.getTime()).toBeGreaterThan(Date.now() + 50_000)
		expect((await post(workspace.id, false)).status).toBe(204)
		expect(await focusOf(agent.user.id, workspace.id)).toBeNull()

		const other = await createWorkspace('Not theirs')
		const owner = await createUser({ workspaceId: other.id, role: 'owner' })
		expect((await post(other.id, true)).status).toBe(404)
		expect(await focusOf(owner.user.id, other.id)).toBeNull()

		// Read only by posting; without a session, to the login page.
		expect((await fetch(`${server.url}/en-us/dashboard/focus`, { headers: { Cookie: cookie } })).status).toBe(404)
		const anonymous = await fetch(`${server.url}/en-us/dashboard/focus`, {
			method: 'POST',
			headers: { Origin: server.url },
			body: new URLSearchParams({ workspaceId: workspace.id, focused: 'true' }),
			redirect: 'manual',
		})
		expect(anonymous.status).toBe(302)
	})
})
