import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { FieldErrors, FormErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { autoReplyLimits, type AutoReplies } from '#common/auto-replies.ts'
import { languages } from '#locales/languages.ts'

const kinds = ['away', 'greeting'] as const

/** The form's values: each reply's switch, text and translations (`{kind}.translations.{locale}`), as posted. */
export type AutoRepliesValues = AutoReplies
export type AutoRepliesRefusal = { values: AutoRepliesValues; fields: Record<string, string[]>; message: string | null }

/** Reads the posted form: a translation left empty is none. */
export function autoRepliesOfForm(formData: FormData): AutoReplies {
	const text = (name: string) => String(formData.get(name) ?? '')
	const reply = (kind: (typeof kinds)[number]) => ({
		enabled: formData.get(`${kind}.enabled`) === 'on',
		text: text(`${kind}.text`),
		translations: Object.fromEntries(
			languages.flatMap((language) => {
				const value = text(`${kind}.translations.${language.code}`).trim()
				return value ? [[language.code, value]] : []
			}),
		),
	})
	return { away: reply('away'), greeting: reply('greeting') }
}

/**
 * A channel's away message (first message of a closed period, once per conversation and period)
 * and greeting (first message of a new conversation), each on or off, with a text and optional
 * translations sent to customers whose language the channel knows. Plain inputs: works without JavaScript.
 */
export function AutoRepliesForm({
	replies,
	refused,
	pending,
	linkPage = false,
}: {
	replies: AutoReplies
	refused?: AutoRepliesRefusal
	pending: boolean
	/** A chat link's: its page shows the away message's words while closed. */
	linkPage?: boolean
}) {
	const { t } = useTranslation('channels')
	const values = refused?.values ?? replies
	const errorsOf = (field: string) => refused?.fields[field] ?? []
	return (
		<Form method="post" noValidate className={fieldStyles.form} key={JSON.stringify(refused ?? replies)}>
			<input type="hidden" name="intent" value="autoReplies" />
			<FormErrors id="auto-replies-errors" errors={refused?.message ? [refused.message] : undefined} />
			{kinds.map((kind) => {
				const reply = values[kind]
				const textErrors = errorsOf(`${kind}.text`)
				return (
					<fieldset key={kind} className={fieldStyles.field}>
						<legend className={fieldStyles.label}>{t(`autoReplies.${kind}.title`)}</legend>
						<label className={fieldStyles.choice}>
							<input type="checkbox" name={`${kind}.enabled`} defaultChecked={reply.enabled} aria-describedby={`${kind}-help`} />
							{t(`autoReplies.${kind}.enabled`)}
						</label>
						<p id={`${kind}-help`} className={fieldStyles.help}>
							{t(`autoReplies.${kind}.help`)}
							{kind === 'away' && linkPage ? ` ${t('autoReplies.away.linkHelp')}` : null}
						</p>
						<label htmlFor={`${kind}-text`} className={fieldStyles.label}>
							{t('autoReplies.text')}
						</label>
						<textarea
							id={`${kind}-text`}
							name={`${kind}.text`}
							rows={3}
							dir="auto"
							maxLength={autoReplyLimits.text}
							defaultValue={reply.text}
							className={fieldStyles.input}
							aria-invalid={textErrors.length > 0 ? true : undefined}
							aria-describedby={textErrors.length > 0 ? `${kind}-text-errors` : undefined}
						/>
						<FieldErrors id={`${kind}-text-errors`} errors={textErrors} />
						{languages.map((language) => {
							const field = `${kind}.translations.${language.code}`
							return (
								<div key={language.code} className={fieldStyles.field}>
									<label htmlFor={`${kind}-${language.code}`} className={fieldStyles.label}>
										{t('autoReplies.translation', { language: language.name })}
									</label>
									<textarea
										id={`${kind}-${language.code}`}
										name={field}
										rows={2}
										lang={language.tag}
										dir={language.dir}
										maxLength={autoReplyLimits.text}
										defaultValue={(reply.translations as Partial<Record<string, string>>)[language.code] ?? ''}
										className={fieldStyles.input}
									/>
									<FieldErrors id={`${kind}-${language.code}-errors`} errors={errorsOf(field)} />
								</div>
							)
						})}
					</fieldset>
				)
			})}
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('autoReplies.save')}
				</Button>
			</div>
		</Form>
	)
}
