import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test } from './fixtures.ts'

// Issue 31's rules page without JavaScript: rows added by the form's own buttons, a refused save that keeps
// every value, and the run order changed by a posted button.
test.use({ javaScriptEnabled: false })

test('without JavaScript an owner builds a rule row by row, keeps what was typed through a refusal, and moves it up', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	const owner = await registerUser(request, { name: 'Olga Owner' })
	const workspace = await createWorkspace(request, owner.token, 'Rules Inc')
	const headers = { Authorization: `Bearer ${owner.token}` }
	const label = await request.post(`/v1/workspaces/${workspace.id}/labels`, { data: { title: 'Refund', color: '#d97706' }, headers })
	expect(label.status()).toBe(201)
	const first = await request.post(`/v1/workspaces/${workspace.id}/automation-rules`, {
		data: { name: 'Welcome', event: 'conversation.created', conditions: [], actions: [{ kind: 'mute' }] },
		headers,
	})
	expect(first.status()).toBe(201)
	await signIn(context, baseURL!, owner.token)

	await page.goto('/en-us/dashboard/settings/automation')
	await expect(page.getByRole('heading', { level: 1, name: 'Automation' })).toBeVisible()
	await expect(page.getByRole('navigation').getByRole('link', { name: 'Automation', exact: true })).toBeVisible()
	await page.getByRole('link', { name: 'New rule' }).click()
	await expect(page).toHaveURL('/en-us/dashboard/settings/automation/new')

	// One condition: the message has a refund word.
	await page.getByRole('button', { name: 'Add a condition' }).click()
	await expect(page.getByLabel('Condition 1', { exact: true })).toHaveValue('messageContains')
	await page.getByLabel('Words', { exact: true }).fill('refund, remboursement')

	// Two actions: label it (the default kind), then an urgent priority (another kind, shown by its button).
	await page.getByRole('button', { name: 'Add an action' }).click()
	await page.getByRole('checkbox', { name: 'Refund' }).check()
	await page.getByRole('button', { name: 'Add an action' }).click()
	await page.getByLabel('Action 2', { exact: true }).selectOption('setPriority')
	await page.getByRole('button', { name: 'Show its fields' }).nth(2).click()
	await page.getByLabel('Priority', { exact: true }).selectOption('urgent')

	// No name: refused beside the field, and nothing typed or chosen is lost.
	await page.getByRole('button', { name: 'Create the rule' }).click()
	await expect(page.getByText('This cannot be empty.')).toBeVisible()
	await expect(page.getByLabel('Words', { exact: true })).toHaveValue('refund, remboursement')
	await expect(page.getByRole('checkbox', { name: 'Refund' })).toBeChecked()
	await expect(page.getByLabel('Action 2', { exact: true })).toHaveValue('setPriority')
	await expect(page.getByLabel('Priority', { exact: true })).toHaveValue('urgent')

	await page.getByLabel('Name', { exact: true }).fill('Refunds')
	await page.getByRole('button', { name: 'Create the rule' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Rule Refunds' })).toBeVisible()
	await expect(page.getByText('The rule has not run yet.')).toBeVisible()

	// Added last; one press of its posted button runs it first.
	await page.getByRole('link', { name: 'Back to the rules' }).click()
	const names = page.locator('tbody tr td:nth-child(2)')
	await expect(names).toHaveText(['Welcome', 'Refunds'])
	await page.getByRole('button', { name: 'Move Refunds up' }).click()
	await expect(page.getByText('Rule Refunds now runs earlier')).toBeVisible()
	await expect(names).toHaveText(['Refunds', 'Welcome'])
})
