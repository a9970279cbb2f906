import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { FormErrors, SelectField, formClass } from '#app/components/ui/field.tsx'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'

const loadSchema = () => import('./channel-team-form.schema.ts').then((module) => module.channelTeamSchema)

/** Which team the channel's new conversations go to, or none: the workspace's teams by name. */
export function ChannelTeamForm({
	teamId,
	teams,
	result,
	pending,
}: {
	teamId: string | null
	teams: Array<{ id: string; name: string }>
	result: SubmissionResult<string[]> | undefined
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const [form, fields] = useValidatedForm(loadSchema, { id: 'channel-team', lastResult: result, defaultValue: { teamId: teamId ?? '' } })
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="intent" value="team" />
			<FormErrors id={form.errorId} errors={form.errors} />
			<SelectField label={t('ui.team')} help={teams.length ? t('ui.teamHelp') : t('ui.noTeams')} field={fields.teamId}>
				<option value="">{t('ui.noTeam')}</option>
				{teams.map((team) => (
					<option key={team.id} value={team.id}>
						{team.name}
					</option>
				))}
			</SelectField>
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('ui.saveTeam')}
				</Button>
			</div>
		</Form>
	)
}
