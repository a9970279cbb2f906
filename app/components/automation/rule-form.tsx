import { getFormProps, getInputProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type AutomationActionKind, type AutomationConditionKind, type AutomationEvent } from '#common/automation.ts'
import { FormActions } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { ErrorList, FormErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { Choice, TextBox, type Option } from './rule-inputs.tsx'
import { ActionFields, ConditionFields, type RuleChoices } from './rule-fields.tsx'
import { ruleErrorMap } from './rule-form.errors.ts'
import { type ConditionRow, type RuleForm as RuleFormValue } from './rule-form.schema.ts'
import * as styles from './automation.css.ts'

export { type RuleChoices } from './rule-fields.tsx'

const loadRuleSchema = () => import('./rule-form.schema.ts').then((module) => module.ruleFormSchema)

// The lists below are written out, every kind once (the records check it), so the page loads no zod.
const every = <Kind extends string>(kinds: Record<Kind, true>) => Object.keys(kinds) as Kind[]

const automationEvents = every<AutomationEvent>({
	'conversation.created': true,
	'message.received': true,
	'conversation.statusChanged': true,
	'conversation.assigneeChanged': true,
	'conversation.teamChanged': true,
	'conversation.labelsChanged': true,
	'conversation.priorityChanged': true,
	'conversation.resolved': true,
})

const conditionKinds = every<AutomationConditionKind>({
	messageContains: true,
	channel: true,
	channelKind: true,
	contactLabel: true,
	contactAttribute: true,
	emailDomain: true,
	conversationLabel: true,
	priority: true,
	status: true,
	team: true,
	assignee: true,
	businessHours: true,
	messageCount: true,
})

const actionKinds = every<AutomationActionKind>({
	addLabels: true,
	removeLabels: true,
	assignTeam: true,
	assignAgent: true,
	autoAssign: true,
	unassign: true,
	setPriority: true,
	setStatus: true,
	snooze: true,
	sendMessage: true,
	addNote: true,
	sendCannedResponse: true,
	mute: true,
})

/** A new row's kind, before the user picks another. */
const firstCondition: ConditionRow = { kind: 'messageContains', op: 'any', words: '' }
const firstAction = { kind: 'addLabels' } as const

const newRule: RuleFormValue = { name: '', enabled: true, event: 'message.received', match: 'all', stopAfter: false, conditions: [], actions: [] }

/**
 * A rule's form: its name, event and switches, then its conditions and actions, a row each. Rows are
 * added and removed by conform's list buttons, which post the form without JavaScript (the action
 * answers it again with one row more or less) and change it in place with it; a row's kind shows its
 * fields as soon as it changes, or after "Show its fields" without JavaScript.
 */
export function RuleForm({
	id,
	rule,
	choices,
	lastResult,
	submit,
	cancel,
}: {
	id: string
	rule: RuleFormValue | null
	choices: RuleChoices
	lastResult: SubmissionResult<string[]> | undefined
	submit: string
	cancel: string
}) {
	const { t } = useTranslation('automation')
	const pending = useNavigation().state === 'submitting'
	const hydrated = useHydrated()
	const [form, fields] = useValidatedForm(loadRuleSchema, { id, lastResult, defaultValue: rule ?? newRule, errorMap: ruleErrorMap })
	const conditions = fields.conditions.getFieldList()
	const actions = fields.actions.getFieldList()
	const listErrors = (field: { errors?: string[] }) => field.errors

	return (
		<Form method="post" {...getFormProps(form)} className={styles.form}>
			<FormErrors id={form.errorId} errors={form.errors} />
			<div className={styles.settings}>
				<TextBox label={t('form.name')} field={fields.name} wide />
				<Choice label={t('form.event')} field={fields.event} options={automationEvents.map((event) => ({ value: event, label: t(`events.${event}`) }))} />
				<Choice
					label={t('form.match')}
					field={fields.match}
					options={(['all', 'any'] as const).map((match) => ({ value: match, label: t(`match.${match}`) }))}
				/>
				<div className={fieldStyles.field}>
					<label className={fieldStyles.choice}>
						<input {...getInputProps(fields.enabled, { type: 'checkbox' })} role="switch" />
						{t('form.enabled')}
					</label>
					<label className={fieldStyles.choice}>
						<input {...getInputProps(fields.stopAfter, { type: 'checkbox' })} />
						{t('form.stopAfter')}
					</label>
				</div>
			</div>

			<fieldset className={styles.group}>
				<legend className={styles.groupTitle}>{t('form.conditions')}</legend>
				<p className={styles.muted}>{conditions.length ? t('form.conditionsHelp') : t('form.noConditions')}</p>
				<ol className={styles.rows}>
					{conditions.map((condition, index) => {
						const row = condition.getFieldset()
						return (
							<li key={condition.key} className={styles.row}>
								<RowHead
									label={t('form.conditionKind', { number: index + 1 })}
									kind={row.kind}
									options={conditionKinds.map((kind) => ({ value: kind, label: t(`conditions.${kind}`) }))}
									show={hydrated ? null : form.update.getButtonProps({ name: row.kind.name })}
									remove={form.remove.getButtonProps({ name: fields.conditions.name, index })}
									removeLabel={t('form.removeCondition', { number: index + 1 })}
								/>
								<ConditionFields row={row} choices={choices} />
							</li>
						)
					})}
				</ol>
				<ErrorList id={fields.conditions.errorId} errors={listErrors(fields.conditions)} />
				<div>
					<button type="submit" {...form.insert.getButtonProps({ name: fields.conditions.name, defaultValue: firstCondition })} className={button.outline}>
						{t('form.addCondition')}
					</button>
				</div>
			</fieldset>

			<fieldset className={styles.group}>
				<legend className={styles.groupTitle}>{t('form.actions')}</legend>
				<ol className={styles.rows}>
					{actions.map((action, index) => {
						const row = action.getFieldset()
						return (
							<li key={action.key} className={styles.row}>
								<RowHead
									label={t('form.actionKind', { number: index + 1 })}
									kind={row.kind}
									options={actionKinds.map((kind) => ({ value: kind, label: t(`actions.${kind}`) }))}
									show={hydrated ? null : form.update.getButtonProps({ name: row.kind.name })}
									remove={form.remove.getButtonProps({ name: fields.actions.name, index })}
									removeLabel={t('form.removeAction', { number: index + 1 })}
								/>
								<ActionFields row={row} choices={choices} />
							</li>
						)
					})}
				</ol>
				<ErrorList id={fields.actions.errorId} errors={listErrors(fields.actions)} />
				<div>
					<button type="submit" {...form.insert.getButtonProps({ name: fields.actions.name, defaultValue: firstAction })} className={button.outline}>
						{t('form.addAction')}
					</button>
				</div>
			</fieldset>

			<FormActions submit={submit} cancel={cancel} pending={pending} />
		</Form>
	)
}

/** What conform's list and update buttons carry (its intent, posted as the button's value). */
type ButtonProps = { name: string; value: string; form: string; formNoValidate: boolean }

/** A row's kind, its button to show the kind's fields (without JavaScript only) and its remove button. */
function RowHead({
	label,
	kind,
	options,
	show,
	remove,
	removeLabel,
}: {
	label: string
	kind: FieldMetadata<string | undefined>
	options: Option[]
	show: ButtonProps | null
	remove: ButtonProps
	removeLabel: string
}) {
	const { t } = useTranslation('automation')
	return (
		<div className={styles.rowHead}>
			<div className={styles.rowKind}>
				<Choice label={label} field={kind} options={options} />
			</div>
			{show ? (
				<button type="submit" {...show} className={button.outline}>
					{t('form.showFields')}
				</button>
			) : null}
			<button type="submit" {...remove} className={button.ghost} aria-label={removeLabel}>
				{t('form.remove')}
			</button>
		</div>
	)
}
