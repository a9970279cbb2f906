import { type APIRequestContext } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { inviteAndAccept } from './realtime-support.ts'

/** A workspace whose log has an invitation made and accepted, a role change and a contacts export. */
async function auditedWorkspace(request: APIRequestContext) {
	const owner = await registerUser(request, { name: 'Olga Owner' })
	const workspace = await createWorkspace(request, owner.token, 'Audited')
	const agent = await registerUser(request, { name: 'Ada Agent' })
	await inviteAndAccept(request, workspace.id, owner.token, agent.token)
	const headers = { Authorization: `Bearer ${owner.token}` }
	const exported = await request.get(`/v1/workspaces/${workspace.id}/contacts/export`, { headers })
	if (!exported.ok()) throw new Error(`export failed: ${exported.status()}`)
	const promoted = await request.patch(`/v1/workspaces/${workspace.id}/members/${agent.user.id}`, { data: { role: 'admin' }, headers })
	if (!promoted.ok()) throw new Error(`role change failed: ${promoted.status()}`)
	const demoted = await request.patch(`/v1/workspaces/${workspace.id}/members/${agent.user.id}`, { data: { role: 'agent' }, headers })
	if (!demoted.ok()) throw new Error(`role change failed: ${demoted.status()}`)
	return { owner, agent, workspace }
}

const words = {
	'en-us': {
		title: 'Audit log',
		roleChanged: 'Olga Owner changed the role of Ada Agent from administrator to agent',
		accepted: 'Ada Agent accepted an invitation and joined as agent',
		kind: 'Role changed',
		filter: 'Filter',
		exportCsv: 'Export as CSV',
		nav: 'Audit log',
	},
	'ar-eg': {
		title: 'سجل التدقيق',
		roleChanged: 'غيّر Olga Owner دور Ada Agent من مسؤول إلى وكيل',
		accepted: 'قبل Ada Agent دعوة وانضم بدور وكيل',
		kind: 'تغيير دور',
		filter: 'تصفية',
		exportCsv: 'تصدير بصيغة CSV',
		nav: 'سجل التدقيق',
	},
} as const

let audited: Awaited<ReturnType<typeof auditedWorkspace>>
test.beforeAll(async ({ request }) => {
	audited = await auditedWorkspace(request)
})

for (const javaScript of [true, false]) {
	test.describe(`the audit log ${javaScript ? 'with' : 'without'} JavaScript`, () => {
		test.use({ javaScriptEnabled: javaScript })

		for (const locale of ['en-us', 'ar-eg'] as const) {
			test(`lines in the reader's language, filtered by a GET form, exported as CSV (${locale})`, async ({ page, context, baseURL }) => {
				const said = words[locale]
				await signIn(context, baseURL!, audited.owner.token)
				await page.goto(`/${locale}/dashboard/settings/audit-log`)
				if (javaScript) await waitForHydration(page)
				await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar-eg' ? 'rtl' : 'ltr')
				await expect(page.getByRole('heading', { level: 1, name: said.title })).toBeVisible()
				await expect(page.getByRole('navigation').getByRole('link', { name: said.nav })).toBeVisible()
				await expect(page.getByRole('cell', { name: said.roleChanged })).toBeVisible()
				await expect(page.getByRole('cell', { name: said.accepted })).toBeVisible()

				await page.locator('#audit-kind').selectOption('member.roleChanged')
				await page.getByRole('button', { name: said.filter }).click()
				await expect(page).toHaveURL(/kind=member\.roleChanged/)
				await expect(page.locator('tbody tr')).toHaveCount(2)
				await expect(page.locator('tbody tr[data-kind="member.roleChanged"]')).toHaveCount(2)
				await expect(page.locator('#audit-kind')).toHaveValue('member.roleChanged')

				const exportLink = page.getByRole('link', { name: said.exportCsv })
				await expect(exportLink).toHaveAttribute('href', `/${locale}/dashboard/settings/audit-log/export?kind=member.roleChanged`)
				const csv = await page.request.get((await exportLink.getAttribute('href'))!, { headers: { 'Accept-Language': locale } })
				expect(csv.status()).toBe(200)
				expect(csv.headers()['content-type']).toMatch(/^text\/csv/)
				const lines = (await csv.text())
					.replace(/^\uFEFF/, '')
					.trim()
					.split('\r\n')
				expect(lines[0]).toBe('created_at,actor_id,actor_name,kind,description')
				expect(lines).toHaveLength(3)
			})
		}

		test('an agent is turned away, and the settings do not offer the page', async ({ page, context, baseURL }) => {
			await signIn(context, baseURL!, audited.agent.token)
			await page.goto('/en-us/dashboard/settings/audit-log')
			await expect(page).toHaveURL(/\/en-us\/dashboard$/)
			await expect(page.getByText('Only owners and admins see the audit log.')).toBeVisible()
			await expect(page.getByRole('navigation').getByRole('link', { name: 'Audit log' })).toHaveCount(0)
		})
	})
}

test('reached from the settings navigation, the lines load their words in the browser too', async ({ page, context, baseURL }) => {
	await signIn(context, baseURL!, audited.owner.token)
	await page.goto('/fr-x/dashboard/profile')
	await waitForHydration(page)
	await page.getByRole('navigation').getByRole('link', { name: 'Journal d’audit' }).click()
	await expect(page).toHaveURL(/\/fr-x\/dashboard\/settings\/audit-log$/)
	await expect(page.getByRole('cell', { name: 'Olga Owner a changé le rôle de Ada Agent de administrateur à agent·e' })).toBeVisible()
	await expect(page.getByRole('cell', { name: /audit:|events\./ })).toHaveCount(0)
})
