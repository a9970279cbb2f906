import { getCollectionProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { channelKinds } from '#app/components/channels/kind-icon.tsx'
import { ErrorList } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { priorities, statuses } from '#app/utils/conversations.ts'
import { allErrorsOf, Choice, TextArea, TextBox, type Option } from './rule-inputs.tsx'
import * as styles from './automation.css.ts'

/** What a rule's rows choose among: the workspace's own, each with an id and a name to show. */
export type RuleChoices = Record<'channels' | 'labels' | 'teams' | 'agents' | 'cannedResponses', Array<{ id: string; name: string }>>

type Row = Record<string, FieldMetadata<unknown>> & { kind: FieldMetadata<unknown> }

const settableStatuses = ['open', 'pending', 'resolved'] as const

/** The fields of a condition row, by its kind. */
export function ConditionFields({ row, choices }: { row: Row; choices: RuleChoices }) {
	const { t } = useTranslation('automation')
	const kind = String(row.kind.value)
	// An operator's words depend on its condition ("has none of the words", "has no team").
	const ops = (values: readonly string[]) => (
		<Choice label={t('form.op')} field={row.op!} options={values.map((op) => ({ value: op, label: t(`ops.${kind}.${op}`) }))} />
	)
	const named = (list: Array<{ id: string; name: string }>): Option[] => list.map((item) => ({ value: item.id, label: <bdi>{item.name}</bdi> }))
	const said = (values: readonly string[], prefix: string): Option[] => values.map((value) => ({ value, label: t(`${prefix}.${value}`) }))
	switch (kind) {
		case 'channel':
			return (
				<div className={styles.rowFields}>
					{ops(['is', 'isNot'])}
					<Checks label={t('form.channels')} field={row.channelIds!} options={named(choices.channels)} none={t('form.noChannels')} />
				</div>
			)
		case 'channelKind':
			return (
				<div className={styles.rowFields}>
					{ops(['is', 'isNot'])}
					<Checks label={t('form.kinds')} field={row.kinds!} options={said(channelKinds, 'kinds')} />
				</div>
			)
		case 'messageContains':
			return (
				<div className={styles.rowFields}>
					{ops(['any', 'none'])}
					<TextBox label={t('form.words')} field={row.words!} help={t('form.wordsHelp')} wide />
				</div>
			)
		case 'contactLabel':
		case 'conversationLabel':
			return (
				<div className={styles.rowFields}>
					{ops(['has', 'lacks'])}
					<IdChoice label={t('form.label')} field={row.labelId!} options={named(choices.labels)} none={t('form.noLabels')} />
				</div>
			)
		case 'contactAttribute':
			return (
				<div className={styles.rowFields}>
					<TextBox label={t('form.attribute')} field={row.attribute!} help={t('form.attributeHelp')} />
					{ops(['equals', 'contains'])}
					<TextBox label={t('form.value')} field={row.value!} />
				</div>
			)
		case 'emailDomain':
			return (
				<div className={styles.rowFields}>
					{ops(['is', 'isNot'])}
					<TextBox label={t('form.domains')} field={row.domains!} help={t('form.domainsHelp')} wide />
				</div>
			)
		case 'priority':
			return (
				<div className={styles.rowFields}>
					{ops(['is', 'isNot'])}
					<Checks label={t('form.priorities')} field={row.priorities!} options={said(priorities, 'priorities')} />
				</div>
			)
		case 'status':
			return (
				<div className={styles.rowFields}>
					{ops(['is', 'isNot'])}
					<Checks label={t('form.statuses')} field={row.statuses!} options={said(statuses, 'statuses')} />
				</div>
			)
		case 'team':
			return (
				<div className={styles.rowFields}>
					{ops(['none', 'is', 'isNot'])}
					<Checks label={t('form.teams')} field={row.teamIds!} options={named(choices.teams)} none={t('form.noTeams')} help={t('form.teamsHelp')} />
				</div>
			)
		case 'assignee':
			return (
				<div className={styles.rowFields}>
					{ops(['none', 'anyone', 'is'])}
					<Checks label={t('form.agents')} field={row.userIds!} options={named(choices.agents)} help={t('form.agentsHelp')} />
				</div>
			)
		case 'businessHours':
			return <div className={styles.rowFields}>{ops(['inside', 'outside'])}</div>
		case 'messageCount':
			return (
				<div className={styles.rowFields}>
					{ops(['equals', 'atLeast', 'atMost'])}
					<TextBox label={t('form.count')} field={row.value!} type="number" help={t('form.countHelp')} />
				</div>
			)
		default:
			return null
	}
}

/** The fields of an action row, by its kind. */
export function ActionFields({ row, choices }: { row: Row; choices: RuleChoices }) {
	const { t } = useTranslation('automation')
	const named = (list: Array<{ id: string; name: string }>): Option[] => list.map((item) => ({ value: item.id, label: <bdi>{item.name}</bdi> }))
	const said = (values: readonly string[], prefix: string): Option[] => values.map((value) => ({ value, label: t(`${prefix}.${value}`) }))
	switch (row.kind.value) {
		case 'assignTeam':
			return <IdChoice label={t('form.team')} field={row.teamId!} options={named(choices.teams)} none={t('form.noTeams')} />
		case 'assignAgent':
			return <IdChoice label={t('form.agent')} field={row.userId!} options={named(choices.agents)} none={t('form.noAgents')} />
		case 'addLabels':
		case 'removeLabels':
			return <Checks label={t('form.labels')} field={row.labelIds!} options={named(choices.labels)} none={t('form.noLabels')} />
		case 'setPriority':
			return <Choice label={t('form.priority')} field={row.priority!} options={said(priorities, 'priorities')} />
		case 'setStatus':
			return <Choice label={t('form.status')} field={row.status!} options={said(settableStatuses, 'statuses')} />
		case 'snooze':
			return <TextBox label={t('form.minutes')} field={row.minutes!} type="number" help={t('form.minutesHelp')} />
		case 'sendMessage':
			return (
				<TextArea
					label={t('form.message')}
					field={row.body!}
					help={t('form.messageHelp', { variable: '{{name}}', withFallback: `{{company | ${t('form.fallbackWord')}}}` })}
				/>
			)
		case 'addNote':
			return <TextArea label={t('form.note')} field={row.body!} />
		case 'sendCannedResponse':
			return (
				<IdChoice label={t('form.cannedResponse')} field={row.cannedResponseId!} options={named(choices.cannedResponses)} none={t('form.noCannedResponses')} />
			)
		default:
			return null
	}
}

/** One of the workspace's things (a label, a team); said plainly when it has none yet. */
function IdChoice({ label, field, options, none }: { label: string; field: FieldMetadata<unknown>; options: Option[]; none: string }) {
	return (
		<>
			<Choice label={label} field={field} options={options} />
			{options.length ? null : <p className={styles.muted}>{none}</p>}
		</>
	)
}

/** Checkboxes of `options` (one value posted per tick); a ticked value the options lost stays ticked, to untick. */
function Checks({ label, field, options, none, help }: { label: string; field: FieldMetadata<unknown>; options: Option[]; none?: string; help?: string }) {
	const { t } = useTranslation('automation')
	const ticked = [field.initialValue].flat().filter((value): value is string => typeof value === 'string')
	const gone = ticked.filter((value) => !options.some((option) => option.value === value))
	const all = [...options, ...gone.map((value) => ({ value, label: t('form.gone') }))]
	const labels = new Map(all.map((option) => [option.value, option.label]))
	const errors = allErrorsOf(field)
	return (
		<fieldset className={`${fieldStyles.field} ${styles.wide} ${styles.bare}`} aria-describedby={errors.length ? field.errorId : undefined}>
			<legend className={fieldStyles.label}>{label}</legend>
			{help ? <p className={fieldStyles.help}>{help}</p> : null}
			{all.length ? (
				<div className={fieldStyles.choices}>
					{getCollectionProps(field as FieldMetadata<string[]>, { type: 'checkbox', options: all.map((option) => option.value) }).map(({ key, ...props }) => (
						<label key={key} className={fieldStyles.choice}>
							<input {...props} />
							{labels.get(props.value)}
						</label>
					))}
				</div>
			) : none ? (
				<p className={styles.muted}>{none}</p>
			) : null}
			<ErrorList id={field.errorId} errors={errors} />
		</fieldset>
	)
}
