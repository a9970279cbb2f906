import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { createRule, updateRule } from '#app/.server/automation.ts'
import { listCannedResponses } from '#app/.server/canned-responses.ts'
import { listChannels } from '#app/.server/channels.ts'
import { replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { listLabels } from '#app/.server/labels.ts'
import { listOrToast, requireUser, type SignedIn, type WorkspaceUser } from '#app/.server/session.ts'
import { listTeams, teamCandidates } from '#app/.server/teams.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { type RuleChoices } from '#app/components/automation/rule-form.tsx'
import { automationPath } from '#app/components/automation/path.ts'
import { ruleErrorMap } from '#app/components/automation/rule-form.errors.ts'
import { ruleFormSchema } from '#app/components/automation/rule-form.schema.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage } from '#common/roles.ts'

/** Owners and admins only: an agent is sent back to the overview, as the API would answer 403. */
export async function requireAutomationManager(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<SignedIn<WorkspaceUser>> {
	const signedIn = await requireUser(args)
	if (!canManage(signedIn.user.workspace.role)) {
		const t = await serverT(signedIn.locale)
		throw await redirectWithToast(`/${signedIn.locale}/dashboard`, { type: 'error', title: t('automation:forbidden') })
	}
	return signedIn
}

const noChoices: RuleChoices = { channels: [], labels: [], teams: [], agents: [], cannedResponses: [] }

/**
 * What a rule's rows choose among, each by id and name, from the workspace's own lists; when the API
 * fails, none and a toast saying why (a saved rule's choices then show as gone, not lost).
 */
export async function ruleChoices({ user, locale, api }: SignedIn<WorkspaceUser>, request: Request) {
	const workspaceId = user.workspace.id
	const t = await serverT(locale)
	const load = Promise.all([
		listChannels(api, workspaceId),
		listLabels(api, workspaceId),
		listTeams(api, workspaceId),
		teamCandidates(api, workspaceId),
		listCannedResponses(api, workspaceId),
	]).then(([channels, labels, teams, agents, cannedResponses]): RuleChoices => ({
		channels: channels.map((channel) => ({ id: channel.id, name: channel.name })),
		labels: labels.map((label) => ({ id: label.id, name: label.title })),
		teams: teams.map((team) => ({ id: team.id, name: team.name })),
		agents: agents.map((agent) => ({ id: agent.userId, name: agent.name })),
		cannedResponses: cannedResponses.map((canned) => ({ id: canned.id, name: `/${canned.shortCode}` })),
	}))
	const { list: choices, failure } = await listOrToast(load, noChoices, { locale, request, title: t('automation:choicesFailed') })
	return { choices, choicesFailure: failure }
}

/** The API's path of a field (`conditions.0.labelId`) as the form names it (`conditions[0].labelId`). */
export const ruleFieldOf = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, '[$1]')

/** A field name conform can walk: a key, then indices and keys (`conditions[0].labelId`), none of them `__proto__` or `constructor`. */
const walkable = (name: string) => /^[A-Za-z_$][\w$]*(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*$/.test(name) && !/(?:^|\.)(?:__proto__|constructor)(?:[.[]|$)/.test(name)

/**
 * The form as posted. Conform throws on what its buttons never post (a field named `__proto__`, an
 * intent that is no JSON): such fields are dropped, and what still fails is a 400, never a 500.
 */
function parseRuleForm(formData: FormData) {
	for (const name of new Set(formData.keys())) if (!walkable(name)) formData.delete(name)
	try {
		return parseWithZod(formData, { schema: ruleFormSchema, errorMap: ruleErrorMap })
	} catch {
		throw data({ messageKey: 'error.badForm' }, { status: 400 })
	}
}

/**
 * The rule form's action, for a new rule (`ruleId` null) or a saved one: a row added or removed
 * (conform's list buttons, without JavaScript) answers the form again as posted, one row more or
 * less; a valid rule goes to the API, whose refusals come back beside their fields.
 */
export async function saveRule(args: ActionFunctionArgs, ruleId: string | null) {
	const { user, locale, api } = await requireAutomationManager(args)
	const formData = await formOf(args.request)
	const submission = parseRuleForm(formData)
	if (submission.status === undefined) return data({ result: submission.reply() })
	if (submission.status !== 'success') return replyInvalid(submission)
	const t = await serverT(locale)
	try {
		const saved = ruleId ? await updateRule(api, user.workspace.id, ruleId, submission.value) : await createRule(api, user.workspace.id, submission.value)
		return redirectWithToast(`${automationPath(locale)}/${saved.id}`, {
			type: 'success',
			title: t(ruleId ? 'automation:saved' : 'automation:created', { name: saved.name }),
		})
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request: args.request }, fieldOf: ruleFieldOf })
	}
}
