import { type Page } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { inboundPath, linkChannel } from './inbox-support.ts'
import { linkChannelOf, visitorWrites } from './link-support.ts'
import { inviteAndAccept, isSameDocument, markDocument, realtimeSdk, subscriptionCount } from './realtime-support.ts'

/** The page's requests whose path ends with `ending`, from now on. */
function requestsTo(page: Page, ending: string): string[] {
	const urls: string[] = []
	page.on('request', (request) => {
		if (new URL(request.url()).pathname.endsWith(ending)) urls.push(request.url())
	})
	return urls
}

/** The page's data requests (Remix's `.data`): a loader run, which a merged event must not cost. */
const dataRequests = (page: Page) => requestsTo(page, '.data')
/** The routes whose loaders a data request runs. */
const routesOf = (url: string) => new URL(url).searchParams.get('_routes')?.split(',') ?? []

const row = (page: Page, number: number) => page.locator(`[data-pane="list"] li[data-conversation="${number}"]`)
const thread = (page: Page) => page.getByRole('log')

test('two agents’ inboxes show each customer message as it comes, without a data request; a dropped connection catches up with one reload', async ({
	browser,
	request,
	baseURL,
}) => {
	test.slow()
	const inbound = await inboundPath(baseURL!)
	const contexts = [await browser.newContext(), await browser.newContext(), await browser.newContext()]
	try {
		const owner = await registerUser(request, { name: 'Olga Owner' })
		const agent = await registerUser(request, { name: 'Adam Agent' })
		await inbound.db.updateTable('users').set({ emailVerifiedAt: new Date() }).where('id', 'in', [owner.user.id, agent.user.id]).execute()
		const workspace = await createWorkspace(request, owner.token, 'Live Co')
		await inviteAndAccept(request, workspace.id, owner.token, agent.token)
		const channel = await linkChannel(inbound.db, workspace.id)

		// The customer, on the chat link's page.
		const [visitorContext, ownerContext, agentContext] = contexts as [(typeof contexts)[number], (typeof contexts)[number], (typeof contexts)[number]]
		const visitor = await visitorContext.newPage()
		await visitor.goto(`/en-us/c/${channel.slug}`)
		await waitForHydration(visitor)
		const write = async (body: string) => {
			if (await visitor.getByLabel('Your name').count()) await visitor.getByLabel('Your name').fill('Nadia Visitor')
			await visitor.getByLabel('Your message').fill(body)
			await visitor.getByRole('button', { name: 'Send' }).click()
			await expect(visitor.getByLabel('Your message')).toHaveValue('')
		}
		await write('Hello, is anyone there?')

		// The owner has the list open, the agent the conversation.
		await signIn(ownerContext, baseURL!, owner.token)
		await signIn(agentContext, baseURL!, agent.token)
		const list = await ownerContext.newPage()
		const open = await agentContext.newPage()
		await list.goto('/en-us/dashboard/conversations')
		await open.goto('/en-us/dashboard/conversations?conversation=1')
		for (const page of [list, open]) {
			await waitForHydration(page)
			await expect(page.locator('html')).toHaveAttribute('data-realtime', 'connected')
		}
		await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${workspace.id}`)).toBe(2)
		await expect(row(list, 1)).toContainText('Hello, is anyone there?')
		const requests = { list: dataRequests(list), open: dataRequests(open) }
		for (const page of [list, open]) await markDocument(page)

		for (const body of ['My order 4521 is late', 'It was due on Monday', 'Can you check?']) {
			await write(body)
			await expect(row(list, 1)).toContainText(body)
			await expect(thread(open)).toContainText(body)
		}
		// The list's row counts what the owner has not read; the agent, who has it open, sees the thread grow.
		await expect(row(list, 1)).toContainText('4')
		expect(requests).toEqual({ list: [], open: [] })
		expect(await isSameDocument(list)).toBe(true)
		expect(await isSameDocument(open)).toBe(true)

		// A new customer: a new row on top of the owner's list, still without a request.
		const second = await visitorContext.browser()!.newContext()
		contexts.push(second)
		const other = await second.newPage()
		await other.goto(`/en-us/c/${channel.slug}`)
		await waitForHydration(other)
		if (await other.getByLabel('Your name').count()) await other.getByLabel('Your name').fill('Karim Buyer')
		await other.getByLabel('Your message').fill('Do you ship to Cairo?')
		await other.getByRole('button', { name: 'Send' }).click()
		await expect(row(list, 2)).toContainText('Do you ship to Cairo?')
		await expect(list.locator('[data-pane="list"] li[data-conversation]').first()).toHaveAttribute('data-conversation', '2')
		expect(requests.list).toEqual([])

		// The owner's connection drops (the server ends it) while the customer writes: back, the page reloads its data once.
		await realtimeSdk(baseURL!).terminateUserConnections(owner.user.id)
		await write('Hello? Still there?')
		await expect(thread(open)).toContainText('Hello? Still there?')
		await expect(row(list, 1)).toContainText('Hello? Still there?', { timeout: 30_000 })
		// One reload: the inbox route's data and, on their own since the inbox has a clientLoader, the shell's.
		await expect.poll(() => requests.list.map(routesOf).sort()).toEqual([['root', 'routes/$lang.dashboard'], ['routes/$lang.dashboard.conversations']])
		// Live again, by events.
		await write('Thanks!')
		await expect(row(list, 1)).toContainText('Thanks!')
		expect(requests.list).toHaveLength(2)
		expect(await isSameDocument(list)).toBe(true)

		// Opening a conversation from the list asks for its thread alone: the list, its counts and the rest stay.
		const threads = requestsTo(list, '/dashboard/conversations/thread')
		await expect(row(list, 2).getByLabel('Unread messages: 1')).toBeVisible()
		await row(list, 2).getByRole('link').click()
		await expect(thread(list)).toContainText('Do you ship to Cairo?')
		await expect(list).toHaveTitle(/#2/)
		expect(threads).toHaveLength(1)
		// Read now: its badge is gone once another is open, as a reload would show.
		await write('One more thing')
		await expect(row(list, 1)).toContainText('One more thing')
		await row(list, 1).getByRole('link').click()
		await expect(thread(list)).toContainText('One more thing')
		await expect(thread(list)).toContainText('My order 4521 is late')
		await expect(row(list, 2).getByLabel(/Unread messages/)).toHaveCount(0)
		expect(threads).toHaveLength(2)
		expect(requests.list).toHaveLength(2)
		expect(await isSameDocument(list)).toBe(true)
	} finally {
		for (const context of contexts) await context.close()
		await inbound.close()
	}
})

test('the thread route answers only within the member’s own workspaces, and refuses a malformed workspace in the page’s language', async ({
	browser,
	request,
	baseURL,
}) => {
	const theirs = await linkChannelOf(request, { business: 'Theirs Co' })
	await visitorWrites(request, theirs.slug, 'My card number is on its way')
	const member = await registerUser(request, { name: 'Mona Member' })
	await createWorkspace(request, member.token, 'Mine Co')
	const context = await browser.newContext()
	try {
		await signIn(context, baseURL!, member.token)
		// Another workspace's first conversation, asked for by number: nothing of it comes back.
		const elsewhere = await context.request.get(`/en-us/dashboard/conversations/thread?conversation=1&workspace=${theirs.workspace.id}`, { maxRedirects: 0 })
		expect(await elsewhere.text()).not.toContain('card number')
		if (elsewhere.status() === 200) expect(await elsewhere.json()).toMatchObject({ conversation: null, thread: null, otherConversations: [] })
		// Its own owner reads it there.
		const owner = await browser.newContext()
		try {
			await signIn(owner, baseURL!, theirs.owner.token)
			const own = await owner.request.get(`/en-us/dashboard/conversations/thread?conversation=1&workspace=${theirs.workspace.id}`)
			expect(own.status()).toBe(200)
			expect(await own.text()).toContain('card number')
		} finally {
			await owner.close()
		}
		const malformed = await context.request.get('/fr-x/dashboard/conversations/thread?conversation=1&workspace=nope')
		expect(malformed.status()).toBe(400)
		expect(await malformed.json()).toEqual({ message: 'Cette valeur n’est pas valide.', field: 'workspace' })
	} finally {
		await context.close()
	}
})
