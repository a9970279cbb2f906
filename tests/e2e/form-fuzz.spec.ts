import crypto from 'node:crypto'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { type APIRequestContext, type Browser, request as playwright } from '@playwright/test'
import { encodeLoosely, hostileString, leaks } from '../api/hostile.ts'
import { unsubscribeToken } from '#api/notifications/unsubscribe-token.ts'
import { createWorkspace, e2eSessionSecret, freshIp, mailedLink, registerUser, signIn, tokenCookieHeader } from './accounts.ts'
import { expect, test } from './fixtures.ts'
import { inboundPath } from './inbox-support.ts'
import { linkChannelOf } from './link-support.ts'

/**
 * Every page form, fuzzed (issue 18): each route of the build that has an action is either a page
 * opened here, whose `<form method="post">`s are read from the server's own HTML and posted again
 * with hostile values, or an endpoint posted to directly. No answer may be a 5xx, show a stack or
 * the database's words, or be an unfinished document. A new action route with no row below fails.
 */

type Fixture = Awaited<ReturnType<typeof fixtureOf>>

/** The pages opened, by route id; the locale alternates so that both directions are fuzzed. */
const pages: Record<string, (fixture: Fixture, lang: string, request: APIRequestContext) => string[] | Promise<string[]>> = {
	'routes/$lang.auth.login': (_, lang) => [`/${lang}/auth/login`],
	'routes/$lang.auth.signup': (_, lang) => [`/${lang}/auth/signup`],
	'routes/$lang.auth.forgot-password': (_, lang) => [`/${lang}/auth/forgot-password`],
	'routes/$lang.auth.reset-password': async (fixture, lang, request) => {
		expect((await request.post('/v1/auth/forgot-password', { data: { email: fixture.email } })).ok()).toBe(true)
		const { link } = await mailedLink(fixture.email, '/auth/reset-password')
		return [`/${lang}/auth/reset-password?token=not-a-token`, new URL(link).pathname.replace(/^\/[^/]+/, `/${lang}`) + new URL(link).search]
	},
	'routes/$lang.auth.verify-email': async (fixture, lang) => {
		const { link } = await mailedLink(fixture.email, '/auth/verify-email')
		return [`/${lang}/auth/verify-email?token=not-a-token`, new URL(link).pathname.replace(/^\/[^/]+/, `/${lang}`) + new URL(link).search]
	},
	'routes/$lang.c.$slug': (fixture, lang) => [`/${lang}/c/${fixture.slug}`],
	'routes/$lang.dashboard_.settings.workspaces.setup-workspace': (_, lang) => [`/${lang}/dashboard/settings/workspaces/setup-workspace`],
	// The question before joining another's workspace, and the choice to open it once joined.
	'routes/$lang.dashboard_.invitations.accept': async (fixture, lang, request) => {
		const other = await registerUser(request)
		const workspace = await createWorkspace(request, other.token, 'Fuzz elsewhere')
		const invite = async () => {
			const invited = await request.post(`/v1/workspaces/${workspace.id}/invitations`, {
				data: { method: 'link', role: 'agent' },
				headers: { Authorization: `Bearer ${other.token}` },
			})
			return ((await invited.json()) as { code: string }).code
		}
		const accepted = await request.post('/v1/workspaces/invitations/accept', {
			data: { code: await invite(), method: 'link', makeCurrent: false },
			headers: { Authorization: `Bearer ${fixture.token}` },
		})
		expect(accepted.ok()).toBe(true)
		return [
			`/${lang}/dashboard/invitations/accept?agent_invite_code=${await invite()}&agent_invite_method=link`,
			`/${lang}/dashboard/invitations/accept?joined=${workspace.id}`,
		]
	},
	// The chat link's page, and an API channel's (its callback form).
	'routes/$lang.dashboard.settings.channels.$channelId': async (fixture, lang, request) => {
		const created = await request.post(`/v1/workspaces/${fixture.workspaceId}/channels`, {
			data: { kind: 'api', name: 'Fuzz shop', settings: { callbackUrl: 'https://8.8.8.8/fuzz-hooks' } },
			headers: { Authorization: `Bearer ${fixture.token}` },
		})
		expect(created.ok(), await created.text()).toBe(true)
		const api = (await created.json()) as { id: string }
		return [`/${lang}/dashboard/settings/channels/${fixture.channelId}`, `/${lang}/dashboard/settings/channels/${api.id}`]
	},
	'routes/$lang.dashboard.settings.channels._index': (_, lang) => [`/${lang}/dashboard/settings/channels`],
	'routes/$lang.dashboard.settings.channels.create': (_, lang) =>
		['link', 'telegram', 'whatsapp', 'messenger', 'api'].map((kind) => `/${lang}/dashboard/settings/channels/create?kind=${kind}`),
	'routes/$lang.dashboard.settings.workspaces._index': (_, lang) => [`/${lang}/dashboard/settings/workspaces`],
	'routes/$lang.dashboard.settings.workspaces.create': (_, lang) => [`/${lang}/dashboard/settings/workspaces/create`],
	'routes/$lang.dashboard.settings.agents': (_, lang) => [`/${lang}/dashboard/settings/agents`],
	'routes/$lang.dashboard.settings.labels': (_, lang) => [`/${lang}/dashboard/settings/labels`],
	'routes/$lang.dashboard.settings.canned-responses': (_, lang) => [`/${lang}/dashboard/settings/canned-responses`],
	'routes/$lang.dashboard.settings.teams': (_, lang) => [`/${lang}/dashboard/settings/teams`],
	// The bot tokens' page with a revocation being confirmed (its row's links are followed too).
	'routes/$lang.dashboard.settings.integrations._index': async (fixture, lang, request) => [
		`/${lang}/dashboard/settings/integrations?revoke=${await tokenOf(fixture, request, 'bot')}`,
	],
	'routes/$lang.dashboard.campaign-manager': (_, lang) => [`/${lang}/dashboard/campaign-manager?new`],
	'routes/$lang.dashboard.contacts.itsForm': (fixture, lang) => [
		`/${lang}/dashboard/contacts/itsForm`,
		`/${lang}/dashboard/contacts/itsForm?id=${fixture.contactId}`,
	],
	'routes/$lang.dashboard.contacts._index': (fixture, lang) => [`/${lang}/dashboard/contacts?contact=${fixture.contactId}`],
	'routes/$lang.dashboard.conversations': (_, lang) => [`/${lang}/dashboard/conversations?conversation=1`],
	// A second member, whose role the owner may change: the page's own forms are about others (the owner's availability is the top bar's).
	'routes/$lang.dashboard.team-members': async (fixture, lang, request) => {
		const headers = { Authorization: `Bearer ${fixture.token}` }
		const invited = await request.post(`/v1/workspaces/${fixture.workspaceId}/invitations`, { data: { method: 'link', role: 'agent' }, headers })
		const agent = await registerUser(request, { name: 'Fuzz Agent' })
		const accepted = await request.post('/v1/workspaces/invitations/accept', {
			data: { code: ((await invited.json()) as { code: string }).code, method: 'link' },
			headers: { Authorization: `Bearer ${agent.token}` },
		})
		expect(accepted.ok()).toBe(true)
		return [`/${lang}/dashboard/team-members`]
	},
	// The profile, its personal token's revocation being confirmed (its row's links are followed too).
	'routes/$lang.dashboard.profile': async (fixture, lang, request) => [`/${lang}/dashboard/profile?revoke=${await tokenOf(fixture, request, 'personal')}`],
	'routes/$lang.dashboard.settings.automation._index': async (fixture, lang, request) => [
		`/${lang}/dashboard/settings/automation?rule=${await automationRuleOf(fixture, request)}`,
	],
	'routes/$lang.dashboard.settings.automation.new': (_, lang) => [`/${lang}/dashboard/settings/automation/new`],
	'routes/$lang.dashboard.settings.automation.$ruleId': async (fixture, lang, request) => [
		`/${lang}/dashboard/settings/automation/${await automationRuleOf(fixture, request)}`,
	],
	// The webhooks' list (its form, and a deletion being confirmed) and a webhook's page (its form, the test event, a delivery to send again).
	'routes/$lang.dashboard.settings.integrations.webhooks._index': async (fixture, lang, request) => [
		`/${lang}/dashboard/settings/integrations/webhooks?delete=${(await webhookOf(fixture, request)).id}`,
	],
	'routes/$lang.dashboard.settings.integrations.webhooks.$subscriptionId': async (fixture, lang, request) => [
		`/${lang}/dashboard/settings/integrations/webhooks/${(await webhookOf(fixture, request)).id}`,
	],
	// The notifications' page ("mark all read") and their settings (the grid, the sound, the devices' forms).
	// One unread, so that "mark all read" is offered.
	'routes/$lang.dashboard.notifications._index': async (fixture, lang) => {
		const inbound = await inboundPath(test.info().project.use.baseURL!)
		await inbound.db
			.insertInto('notifications')
			.values({ workspaceId: fixture.workspaceId, userId: fixture.userId, kind: 'campaignDone', values: { campaign: 'Fuzz', sent: 1, failed: 0 } })
			.execute()
		await inbound.close()
		return [`/${lang}/dashboard/notifications`]
	},
	'routes/$lang.dashboard.notifications.settings': (_, lang) => [`/${lang}/dashboard/notifications/settings`],
	// A notification mail's "stop these e-mails" page: no sign-in, the link's token is signed with the server's secret.
	'routes/$lang.notifications.unsubscribe': async (_, lang, request) => {
		const owner = await registerUser(request)
		const workspace = await createWorkspace(request, owner.token, 'Fuzz unsubscribe')
		const token = unsubscribeToken(e2eSessionSecret, { userId: owner.user.id, workspaceId: workspace.id, kinds: ['assigned'] })
		return [`/${lang}/notifications/unsubscribe?token=${encodeURIComponent(token)}`, `/${lang}/notifications/unsubscribe?token=not-a-token`]
	},
}

/** An access token of the fixture's workspace, its id, so that its page lists one to revoke and rename. */
async function tokenOf(fixture: Fixture, request: APIRequestContext, kind: 'bot' | 'personal') {
	const created = await request.post(`/v1/workspaces/${fixture.workspaceId}/access-tokens`, {
		data: { kind, name: 'Fuzz token', scopes: ['contacts:read'] },
		headers: { Authorization: `Bearer ${fixture.token}` },
	})
	expect(created.status(), await created.text()).toBe(201)
	return ((await created.json()) as { token: { id: string } }).token.id
}

/** A webhook of the fixture's workspace (to an address this machine does not reach) with a failed delivery, so that its page offers "send again". */
async function webhookOf(fixture: Fixture, request: APIRequestContext) {
	const created = await request.post(`/v1/workspaces/${fixture.workspaceId}/webhooks`, {
		data: { url: 'https://[2001:db9::1]/fuzz', events: ['contact.created'], enabled: false },
		headers: { Authorization: `Bearer ${fixture.token}` },
	})
	expect(created.status(), await created.text()).toBe(201)
	const { webhook } = (await created.json()) as { webhook: { id: string } }
	const inbound = await inboundPath(test.info().project.use.baseURL!)
	await inbound.db
		.insertInto('webhookDeliveries')
		.values({
			workspaceId: fixture.workspaceId,
			subscriptionId: webhook.id,
			eventType: 'webhook.test',
			webhookId: 'msg_fuzz',
			payload: '{}',
			orderingKey: webhook.id,
			status: 'failed',
		})
		.execute()
	await inbound.close()
	return webhook
}

/** A rule of the fixture's workspace, so that its list has rows and its page exists. */
async function automationRuleOf(fixture: Fixture, request: APIRequestContext) {
	const created = await request.post(`/v1/workspaces/${fixture.workspaceId}/automation-rules`, {
		data: {
			name: 'Refunds',
			event: 'message.received',
			conditions: [{ kind: 'messageContains', op: 'any', words: ['refund'] }],
			actions: [{ kind: 'setPriority', priority: 'high' }],
		},
		headers: { Authorization: `Bearer ${fixture.token}` },
	})
	expect(created.status(), await created.text()).toBe(201)
	return ((await created.json()) as { id: string }).id
}

/** Who opens the page, when not the fixture's owner: nobody signed in, or a user with no workspace yet. */
const openedBy: Record<string, 'anonymous' | 'newcomer'> = {
	'routes/$lang.auth.login': 'anonymous',
	'routes/$lang.auth.signup': 'anonymous',
	'routes/$lang.auth.forgot-password': 'anonymous',
	'routes/$lang.auth.reset-password': 'anonymous',
	'routes/$lang.notifications.unsubscribe': 'anonymous',
	'routes/$lang.dashboard_.settings.workspaces.setup-workspace': 'newcomer',
}

/** Links to the same page with a query (a confirmation, an edit mode, a tab) are opened too, up to this many. */
const followedLinks = 6

/** Action routes that are no page of their own: posted to by scripts or by other pages' forms; fuzzed directly. */
const endpoints: Record<string, (fixture: Fixture) => string> = {
	'routes/$lang.c.$slug_.realtime-auth': (fixture) => `/en-us/c/${fixture.slug}/realtime-auth`,
	'routes/$lang.c.$slug_.read': (fixture) => `/ar-eg/c/${fixture.slug}/read`,
	'routes/$lang.preferences.locale': () => '/ar-eg/preferences/locale',
	'routes/$lang.preferences.theme': () => '/en-us/preferences/theme',
	// The shell's report of the tab's focus (browser push waits while the member looks).
	'routes/$lang.dashboard_.focus': () => '/en-us/dashboard/focus',
	// The top bar's availability switch, on every dashboard page.
	'routes/$lang.dashboard_.availability': () => '/ar-eg/dashboard/availability',
	'routes/realtime.user-auth': () => '/realtime/user-auth',
	'routes/realtime.auth': () => '/realtime/auth',
	'routes/$lang.auth.logout': () => '/fr-x/auth/logout',
	'routes/$lang.$': () => '/en-us/no/such/page',
	'routes/$': () => '/no/such/page',
}

type BuiltRoute = { id: string; parentId?: string; path?: string; module: { action?: unknown } }

/** The build's own route table: every route with an action, with its full path pattern. */
async function actionRoutes() {
	const build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as { routes: Record<string, BuiltRoute> }
	const fullPath = (route: BuiltRoute): string => {
		const parent = route.parentId ? build.routes[route.parentId] : undefined
		return [parent ? fullPath(parent) : '', route.path ?? ''].filter(Boolean).join('/')
	}
	return Object.values(build.routes)
		.filter((route) => route.module.action)
		.map((route) => ({
			id: route.id,
			splat: fullPath(route).endsWith('*'),
			pattern: new RegExp(`^/${fullPath(route).replace(/:\w+/g, '[^/]+').replace('*', '.*')}/?$`),
		}))
}

/** A fresh owner per page (its forms may delete the workspace or the account): a link channel, a conversation, a label, a contact. */
async function fixtureOf(request: APIRequestContext) {
	const link = await linkChannelOf(request)
	const headers = { Authorization: `Bearer ${link.owner.token}` }
	const written = await request.post(`/v1/link/${link.slug}/messages`, {
		data: { body: 'Hello' },
		headers: { 'X-Visitor-Token': crypto.randomBytes(32).toString('base64url') },
	})
	expect(written.ok(), await written.text()).toBe(true)
	const base = `/v1/workspaces/${link.workspace.id}`
	expect((await request.post(`${base}/labels`, { data: { title: 'vip', color: '#aa3355' }, headers })).ok()).toBe(true)
	expect((await request.post(`${base}/canned-responses`, { data: { shortCode: 'hello', content: 'Hello, how can we help?' }, headers })).ok()).toBe(true)
	expect((await request.post(`${base}/teams`, { data: { name: 'Support', autoAssign: true }, headers })).ok()).toBe(true)
	const contact = await request.post(`${base}/contacts`, { data: { name: 'Karim', email: 'karim@example.test' }, headers })
	const channels = await request.get(`${base}/channels`, { headers })
	const [channel] = ((await channels.json()) as { channels: Array<{ id: string }> }).channels
	const newcomer = await registerUser(request)
	return {
		token: link.owner.token,
		userId: link.owner.user.id,
		newcomerToken: newcomer.token,
		email: link.owner.email,
		workspaceId: link.workspace.id,
		slug: link.slug,
		channelId: channel!.id,
		contactId: ((await contact.json()) as { id: string }).id,
	}
}

type Field = { name: string; type: string; value: string; options: string[] }
type Form = { action: string; multipart: boolean; fields: Field[]; buttons: Array<{ name: string; value: string }> }

/** The page's post forms as the server rendered them (no script runs). */
async function formsOn(browser: Browser, baseURL: string, token: string | null, url: string): Promise<{ forms: Form[]; links: string[] }> {
	const context = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { 'X-Forwarded-For': freshIp() } })
	try {
		if (token) await signIn(context, baseURL, token)
		const page = await context.newPage()
		const response = await page.goto(url)
		expect(response?.status(), url).toBeLessThan(500)
		const links = await page.$$eval('a[href]', (anchors) => [
			...new Set(
				anchors
					.map((anchor) => new URL(anchor.getAttribute('href')!, location.href))
					.filter((href) => href.origin === location.origin && href.pathname === location.pathname && href.search)
					.map((href) => href.pathname + href.search),
			),
		])
		const forms = await page.$$eval('form', (forms) =>
			forms
				.filter((form) => form.getAttribute('method')?.toLowerCase() === 'post')
				.map((form) => {
					const controls = Array.from(form.elements) as Array<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>
					return {
						// Read as attributes: a control named "action" or "method" shadows the form's own properties.
						action: new URL(form.getAttribute('action') ?? '', location.href).href,
						multipart: form.getAttribute('enctype') === 'multipart/form-data',
						fields: controls
							.filter((control) => control.name && !(control instanceof HTMLButtonElement) && control.type !== 'submit')
							.map((control) => ({
								name: control.name,
								type: control.type,
								value: control.value,
								options: control instanceof HTMLSelectElement ? Array.from(control.options, (option) => option.value) : [],
							})),
						buttons: controls
							.filter((control) => control.name && (control instanceof HTMLButtonElement || control.type === 'submit'))
							.map((control) => ({ name: control.name, value: control.value })),
					}
				}),
		)
		return { forms, links }
	} finally {
		await context.close()
	}
}

/** One submission of a form: each field its rendered value, another option, a hostile string or left out; the button kept most of the time. */
function submissionOf(form: Form, button: { name: string; value: string } | undefined): fc.Arbitrary<Array<[string, string]>> {
	const field = (entry: Field) =>
		fc.oneof(
			{ weight: 2, arbitrary: fc.constant<[string, string] | null>([entry.name, entry.value]) },
			{
				weight: 1,
				arbitrary: entry.options.length
					? fc.constantFrom(...entry.options).map((value): [string, string] => [entry.name, value])
					: fc.constant<[string, string] | null>(null),
			},
			{ weight: 3, arbitrary: hostileString.map((value): [string, string] => [entry.name, value]) },
			{ weight: 1, arbitrary: fc.constant(null) },
		)
	const pressed = button
		? fc.oneof(
				{ weight: 5, arbitrary: fc.constant<[string, string]>([button.name, button.value]) },
				{ weight: 1, arbitrary: hostileString.map((value): [string, string] => [button.name, value]) },
			)
		: fc.constant(null)
	const extra = fc.option(fc.tuple(fc.oneof(fc.constantFrom('intent', 'id', '__proto__', 'redirectTo'), hostileString), hostileString), { nil: null, freq: 4 })
	return fc
		.tuple(fc.tuple(...form.fields.map(field)), pressed, extra)
		.map(([fields, press, more]) => [...fields, press, more].filter((entry): entry is [string, string] => entry !== null))
}

function encoded(entries: Array<[string, string]>, multipart: boolean): { body: Buffer; type: string } {
	if (!multipart)
		return {
			body: Buffer.from(entries.map(([name, value]) => `${encodeLoosely(name)}=${encodeLoosely(value)}`).join('&')),
			type: 'application/x-www-form-urlencoded',
		}
	const boundary = `----fuzz${Math.random().toString(16).slice(2)}`
	const parts = entries.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${value}\r\n`)
	return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` }
}

/**
 * Names every object has: looked up in an object, they find something that is no intent, field or variable.
 * Each picker is posted one of them, in turn: all four take the same path (an own-property lookup), and
 * four posts per picker were most of this spec's time (decision 024).
 */
const inherited = ['toString', 'constructor', '__proto__', 'hasOwnProperty']
let inheritedTurn = 0
const nextInherited = () => inherited[inheritedTurn++ % inherited.length]!

let previous = 'none'

/** Posts as a browser would (same origin), and checks the answer. */
async function post(request: APIRequestContext, baseURL: string, action: string, entries: Array<[string, string]>, multipart: boolean) {
	const { body, type } = encoded(entries, multipart)
	const sent = `POST ${action} ${type.split(';')[0]} ${JSON.stringify(entries).slice(0, 600)}`
	const response = await request
		.post(action, { data: body, headers: { 'Content-Type': type, Origin: baseURL, 'X-Forwarded-For': freshIp() }, maxRedirects: 0 })
		.catch((error: unknown) => {
			throw new Error(`the server dropped ${sent} (the post before it: ${previous}): ${String(error)}`)
		})
	previous = sent
	const text = await response.text()
	const what = `${sent} → ${response.status()} ${text.slice(0, 300)}`
	expect(response.status(), what).toBeLessThan(500)
	for (const leak of leaks) expect(leak.test(text), `${String(leak)} in ${what}`).toBe(false)
	if (/text\/html/.test(response.headers()['content-type'] ?? '')) expect(text.includes('</html>'), `an unfinished document: ${what}`).toBe(true)
	return response.status()
}

// A form that ends the session or deletes what the page stands on is fuzzed last.
const ending = /logout|delete|remove|leave|revoke|sign-?out/i
const runsPerForm = 3

test.describe('page forms under hostile input', () => {
	test('every action route of the build is fuzzed below', async () => {
		const missing = (await actionRoutes()).map((route) => route.id).filter((id) => !(id in pages) && !(id in endpoints))
		expect(missing, 'action routes with no row in form-fuzz.spec.ts').toEqual([])
	})

	Object.entries(pages).forEach(([routeId, urls], index) => {
		test(`${routeId}: its forms answer hostile posts with no 5xx and no leak`, async ({ browser, request, baseURL }) => {
			test.slow()
			const fixture = await fixtureOf(request)
			const lang = index % 2 ? 'ar-eg' : 'en-us'
			const routes = await actionRoutes()
			const reached = new Set<string>()
			const token = openedBy[routeId] === 'anonymous' ? null : openedBy[routeId] === 'newcomer' ? fixture.newcomerToken : fixture.token
			const opened = await urls(fixture, lang, request)
			const queue = [...opened]
			for (let position = 0; position < queue.length; position++) {
				const { forms, links } = await formsOn(browser, baseURL!, token, queue[position]!)
				if (position < opened.length) queue.push(...links.filter((link) => !queue.includes(link)).slice(0, followedLinks))
				const variants = forms.flatMap((form): Array<{ form: Form; button?: Form['buttons'][number] }> =>
					form.buttons.length ? form.buttons.map((button) => ({ form, button })) : [{ form }],
				)
				variants.sort(
					(a, b) => Number(ending.test(`${a.form.action} ${a.button?.value ?? ''}`)) - Number(ending.test(`${b.form.action} ${b.button?.value ?? ''}`)),
				)
				for (const { form, button } of variants) {
					const action = new URL(form.action)
					const matching = routes.filter((route) => route.pattern.test(action.pathname))
					// A splat route (the 404 pages) matches any path: it is the one posted to only when no other is.
					const posted = (matching.some((route) => !route.splat) ? matching.filter((route) => !route.splat) : matching).map((route) => route.id)
					// The shell's forms (theme, language, sign out) are the endpoints' test's: signing out here would end the page's session.
					if (posted.some((id) => id in endpoints)) continue
					for (const id of posted) reached.add(id)
					await signedRequest(baseURL!, token, async (signed) => {
						await fc.assert(
							fc.asyncProperty(submissionOf(form, button), async (entries) => {
								await post(signed, baseURL!, action.pathname + action.search, entries, form.multipart)
							}),
							{ numRuns: runsPerForm },
						)
						// Every time, not only when drawn: what picks the action (a hidden field, a button) named like what every
						// object has (the team page's `intent=toString` was a 500), one such name per picker.
						const rendered = form.fields.map((field): [string, string] => [field.name, field.value])
						const pickers = [...form.fields.filter((field) => field.type === 'hidden' || field.type === 'select-one'), ...(button ? [button] : [])]
						for (const picker of pickers) {
							const others = rendered.filter(([field]) => field !== picker.name)
							await post(
								signed,
								baseURL!,
								action.pathname + action.search,
								[...others, ...(button && button !== picker ? [[button.name, button.value] as [string, string]] : []), [picker.name, nextInherited()]],
								form.multipart,
							)
						}
					})
				}
			}
			// The page's own action is among those fuzzed: the form was found.
			expect([...reached], `no form of ${queue.join(', ')} posts to its own route`).toContain(routeId)
		})
	})

	test('the endpoints without a page of their own answer hostile posts with no 5xx and no leak', async ({ request, baseURL }) => {
		test.slow()
		const fixture = await fixtureOf(request)
		const fields = fc.array(
			fc.tuple(
				fc.oneof(fc.constantFrom('intent', 'redirectTo', 'locale', 'theme', 'socket_id', 'channel_name', 'upTo', 'availability', 'inPlace'), hostileString),
				hostileString,
			),
			{ maxLength: 5 },
		)
		await signedRequest(baseURL!, fixture.token, async (signed) => {
			for (const url of Object.values(endpoints).map((endpoint) => endpoint(fixture))) {
				await fc.assert(
					fc.asyncProperty(fields, fc.boolean(), async (entries, multipart) => {
						await post(signed, baseURL!, url, entries, multipart)
					}),
					{ numRuns: 20 },
				)
			}
		})
	})
})

/** A request context holding the session cookie (if any) of the browser that rendered the form. */
async function signedRequest(baseURL: string, token: string | null, run: (signed: APIRequestContext) => Promise<void>) {
	const signed = await playwright.newContext({ baseURL, extraHTTPHeaders: token ? { Cookie: await tokenCookieHeader(token) } : {} })
	try {
		await run(signed)
	} finally {
		await signed.dispose()
	}
}
