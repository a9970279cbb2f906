import { parseWithZod } from '@conform-to/zod'
import { describe, expect, test } from 'vitest'
import { ruleErrorMap } from './rule-form.errors.ts'
import { formOfRule, ruleFormSchema } from './rule-form.schema.ts'

const labelId = '0b9e8c1e-6f3a-4c1e-9a43-2b1f0d6c7e10'

function posted(entries: Array<[string, string]>) {
	const formData = new FormData()
	for (const [name, value] of entries) formData.append(name, value)
	return parseWithZod(formData, { schema: ruleFormSchema, errorMap: ruleErrorMap })
}

describe('the rule form', () => {
	test('reads words split at commas, an unticked switch as off and a snooze without minutes as until the next opening', () => {
		const submission = posted([
			['name', ' Refunds '],
			['event', 'message.received'],
			['match', 'any'],
			['conditions[0].kind', 'messageContains'],
			['conditions[0].op', 'any'],
			['conditions[0].words', 'refund, Remboursement ،استرداد,, '],
			['actions[0].kind', 'addLabels'],
			['actions[0].labelIds', labelId],
			['actions[1].kind', 'snooze'],
			['actions[1].minutes', ''],
		])
		expect(submission.status).toBe('success')
		expect(submission.status === 'success' && submission.value).toEqual({
			name: 'Refunds',
			enabled: false,
			event: 'message.received',
			match: 'any',
			stopAfter: false,
			conditions: [{ kind: 'messageContains', op: 'any', words: ['refund', 'Remboursement', 'استرداد'] }],
			actions: [
				{ kind: 'addLabels', labelIds: [labelId] },
				{ kind: 'snooze', minutes: null },
			],
		})
	})

	test('a row added without JavaScript comes back with the values typed and no verdict', () => {
		const submission = posted([
			['name', 'Refunds'],
			['event', 'message.received'],
			['enabled', 'on'],
			['__intent__', JSON.stringify({ type: 'insert', payload: { name: 'actions', defaultValue: { kind: 'addLabels' } } })],
		])
		expect(submission.status).toBeUndefined()
		expect(submission.reply().initialValue).toMatchObject({ name: 'Refunds', enabled: 'on', actions: [{ kind: 'addLabels' }] })
	})

	test('errors sit at the row fields, in keys the page translates', () => {
		const submission = posted([
			['name', ''],
			['event', 'message.received'],
			['conditions[0].kind', 'conversationLabel'],
			['conditions[0].op', 'has'],
			['conditions[0].labelId', 'nope'],
			['conditions[1].kind', 'messageCount'],
			['conditions[1].op', 'equals'],
			['conditions[1].value', '-1'],
		])
		expect(submission.status).toBe('error')
		expect(submission.status === 'error' && submission.error).toMatchObject({
			name: ['automation:errors.required'],
			'conditions[0].labelId': ['automation:errors.unknown'],
			'conditions[1].value': ['automation:errors.number'],
			actions: ['automation:errors.noAction'],
		})
	})

	test('a saved rule starts its form with its words in one box', () => {
		const rule = formOfRule({
			name: 'VIP',
			enabled: true,
			event: 'conversation.created',
			match: 'all',
			stopAfter: true,
			conditions: [{ kind: 'emailDomain', op: 'is', domains: ['acme.com', 'acme.fr'] }],
			actions: [{ kind: 'mute' }],
		})
		expect(rule.conditions).toEqual([{ kind: 'emailDomain', op: 'is', domains: 'acme.com, acme.fr' }])
	})
})
