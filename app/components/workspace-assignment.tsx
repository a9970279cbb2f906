import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { waitMinutesLimits } from '#common/notifications.ts'
import { type WorkspaceJson } from '#app/.server/api.ts'
import { FieldErrors, FormErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { CapacityInput } from '#app/components/ui/capacity-input.tsx'
import { Button } from '#app/components/ui/button.tsx'
import * as styles from './workspace-assignment.css.ts'

export const reopenChoices = ['keep', 'reassign'] as const

/** What was posted, as typed, and why the API refused it: beside each field, or above the form. */
export type AssignmentRefusal = {
	values: { defaultCapacity: string; reopenAssignment: string; agentsSeeOwnTeams: boolean; replyWaitingAfter: string }
	fields: Record<string, string[]>
	message: string | null
}

/**
 * The workspace's assignment settings (issue 30): the capacity of a member who has none of their own, what a
 * reopened conversation whose assignee is away does, and whether agents see only their teams' conversations.
 */
export function AssignmentSettings({ workspace, refused }: { workspace: WorkspaceJson; refused?: AssignmentRefusal }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'assignment'
	const values = refused?.values ?? {
		defaultCapacity: workspace.defaultCapacity === null ? '' : String(workspace.defaultCapacity),
		reopenAssignment: workspace.reopenAssignment,
		agentsSeeOwnTeams: workspace.agentsSeeOwnTeams,
		replyWaitingAfter: String(workspace.replyWaitingAfter),
	}
	const errorsOf = (field: string) => refused?.fields[field] ?? []
	const capacityErrors = errorsOf('defaultCapacity')
	const reopenErrors = errorsOf('reopenAssignment')
	const replyErrors = errorsOf('replyWaitingAfter')
	// A new refusal, or new saved values, draw the fields afresh.
	const key = JSON.stringify(refused ?? [workspace.defaultCapacity, workspace.reopenAssignment, workspace.agentsSeeOwnTeams, workspace.replyWaitingAfter])
	return (
		<Form method="post" noValidate className={fieldStyles.form} aria-labelledby="assignment-heading" key={key}>
			<h3 id="assignment-heading" className={styles.title}>
				{t('assignment.title')}
			</h3>
			<input type="hidden" name="intent" value="assignment" />
			<input type="hidden" name="workspaceId" value={workspace.id} />
			<FormErrors id="assignment-errors" errors={refused?.message ? [refused.message] : undefined} />
			<div className={fieldStyles.field}>
				<label htmlFor="default-capacity" className={fieldStyles.label}>
					{t('assignment.defaultCapacity')}
				</label>
				<CapacityInput
					id="default-capacity"
					name="defaultCapacity"
					defaultValue={values.defaultCapacity}
					placeholder={t('capacity.unlimited')}
					aria-invalid={capacityErrors.length > 0 ? true : undefined}
					aria-describedby={capacityErrors.length > 0 ? 'default-capacity-help default-capacity-errors' : 'default-capacity-help'}
					className={styles.number}
				/>
				<p id="default-capacity-help" className={fieldStyles.help}>
					{t('assignment.defaultCapacityHelp')}
				</p>
				<FieldErrors id="default-capacity-errors" errors={capacityErrors} />
			</div>
			<fieldset className={styles.fieldset} aria-describedby={reopenErrors.length > 0 ? 'reopen-errors' : undefined}>
				<legend className={fieldStyles.label}>{t('assignment.reopen')}</legend>
				{reopenChoices.map((choice) => (
					<label key={choice} className={fieldStyles.choice}>
						<input type="radio" name="reopenAssignment" value={choice} defaultChecked={values.reopenAssignment === choice} />
						{t(`assignment.reopenChoices.${choice}`)}
					</label>
				))}
				<FieldErrors id="reopen-errors" errors={reopenErrors} />
			</fieldset>
			<div className={fieldStyles.field}>
				<label className={fieldStyles.choice}>
					<input type="checkbox" name="agentsSeeOwnTeams" defaultChecked={values.agentsSeeOwnTeams} aria-describedby="own-teams-help" />
					{t('assignment.agentsSeeOwnTeams')}
				</label>
				<p id="own-teams-help" className={fieldStyles.help}>
					{t('assignment.agentsSeeOwnTeamsHelp')}
				</p>
				<FieldErrors id="own-teams-errors" errors={errorsOf('agentsSeeOwnTeams')} />
			</div>
			<div className={fieldStyles.field}>
				<label htmlFor="reply-waiting-after" className={fieldStyles.label}>
					{t('assignment.replyWaitingAfter')}
				</label>
				<input
					id="reply-waiting-after"
					name="replyWaitingAfter"
					type="number"
					dir="auto"
					inputMode="numeric"
					min={waitMinutesLimits.min}
					max={waitMinutesLimits.max}
					step={1}
					required
					defaultValue={values.replyWaitingAfter}
					aria-invalid={replyErrors.length > 0 ? true : undefined}
					aria-describedby={replyErrors.length > 0 ? 'reply-waiting-help reply-waiting-errors' : 'reply-waiting-help'}
					className={styles.number}
				/>
				<p id="reply-waiting-help" className={fieldStyles.help}>
					{t('assignment.replyWaitingAfterHelp')}
				</p>
				<FieldErrors id="reply-waiting-errors" errors={replyErrors} />
			</div>
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('assignment.save')}
				</Button>
			</div>
		</Form>
	)
}
