import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useBrowserValue } from '#app/utils/hydration.ts'
import { languages } from '#locales/languages.ts'
import { Button } from './ui/button.tsx'
import { Field, FormErrors, SelectField, formClass } from './ui/field.tsx'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'

const loadWorkspaceSchema = () => import('./workspace-form.schema.ts').then((module) => module.workspaceSchema)

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

export function WorkspaceForm({
	lastResult,
	locale,
	timezones,
	submitLabel,
	defaultValue,
	more,
	children,
}: {
	lastResult: SubmissionResult<string[]> | undefined
	locale: string
	/** The server's list (the same in its HTML and in the browser). */
	timezones: readonly string[]
	submitLabel: string
	/** The workspace being edited; a new one starts from the browser's time zone and `locale`. */
	defaultValue?: { name: string; timezone: string; defaultLocale: string }
	/** Fields after the language (the settings page's country). */
	more?: React.ReactNode
	/** Hidden fields that say what the form is for (intent, id). */
	children?: React.ReactNode
}) {
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	// The browser knows its time zone; the server's HTML starts from UTC.
	const zone = useBrowserValue(browserZone, 'UTC')
	const [form, fields] = useValidatedForm(loadWorkspaceSchema, {
		id: 'workspace',
		lastResult,
		defaultValue: defaultValue ?? { timezone: zone, defaultLocale: locale },
	})
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			{children}
			<FormErrors id={form.errorId} errors={form.errors} />
			<Field label={t('workspaces.name')} field={fields.name} type="text" required autoComplete="organization" />
			<SelectField
				// Chosen again once the browser's time zone is known (the select's own key is conform's).
				key={zone}
				label={t('workspaces.timezone')}
				field={fields.timezone}
				defaultValue={fields.timezone.initialValue ?? defaultValue?.timezone ?? zone}
			>
				{timezones.map((timezone) => (
					<option key={timezone} value={timezone}>
						{timezone.replaceAll('_', ' ')}
					</option>
				))}
			</SelectField>
			<SelectField label={t('workspaces.defaultLocale')} field={fields.defaultLocale}>
				{languages.map((language) => (
					<option key={language.code} value={language.code} lang={language.tag}>
						{language.name}
					</option>
				))}
			</SelectField>
			{more}
			<Button type="submit" disabled={pending}>
				{submitLabel}
			</Button>
		</Form>
	)
}
