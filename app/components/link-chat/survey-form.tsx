import { getFormProps, getTextareaProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type VisitorSurveyJson } from '#app/.server/api.ts'
import { useErrorText } from '#app/components/ui/field.tsx'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import * as styles from '#app/routes/link-chat.css.ts'

const loadSchema = () => import('#app/routes/$lang.c.$slug.schema.ts').then((module) => module.surveySchema)

const ratings = ['1', '2', '3', '4', '5'] as const

/** The survey of the visitor's resolved conversation: five choices and a comment, a plain form; once answered, the thanks. */
export function SurveyForm({ survey, result, pending }: { survey: VisitorSurveyJson; result: SubmissionResult<string[]> | undefined; pending: boolean }) {
	const { t } = useTranslation('channels')
	const text = useErrorText()
	const [form, fields] = useValidatedForm(loadSchema, { id: 'survey', lastResult: result })
	if (survey.status !== 'asked')
		return (
			<p className={styles.surveyThanks} role="status">
				{t('link.surveyThanks', { rating: survey.rating })}
			</p>
		)
	const ratingError = fields.rating.errors?.[0]
	return (
		<Form method="post" {...getFormProps(form)} className={styles.survey} aria-labelledby="survey-heading">
			<input type="hidden" name="intent" value="rate" />
			<h2 id="survey-heading" className={styles.preChatTitle}>
				{t('link.surveyTitle')}
			</h2>
			<p className={styles.hint}>{t('link.surveyHelp')}</p>
			{form.errors?.length ? (
				<p id={form.errorId} role="alert" className={styles.error}>
					{text(form.errors[0]!)}
				</p>
			) : null}
			<fieldset className={styles.ratings} aria-describedby={ratingError ? fields.rating.errorId : undefined}>
				<legend className={styles.label}>{t('link.surveyRating')}</legend>
				{ratings.map((rating) => (
					<label key={rating} className={styles.rating}>
						<input type="radio" name={fields.rating.name} value={rating} required defaultChecked={fields.rating.initialValue === rating} />
						{t(`link.surveyRatings.${rating}`)}
					</label>
				))}
			</fieldset>
			{ratingError ? (
				<p id={fields.rating.errorId} className={styles.error}>
					{text(ratingError)}
				</p>
			) : null}
			<div className={styles.field}>
				<label htmlFor={fields.comment.id} className={styles.label}>
					{t('link.surveyComment')}
				</label>
				<textarea {...getTextareaProps(fields.comment)} maxLength={4096} rows={2} dir="auto" className={styles.textarea} />
				{fields.comment.errors?.[0] ? (
					<p id={fields.comment.errorId} className={styles.error}>
						{text(fields.comment.errors[0])}
					</p>
				) : null}
			</div>
			<div>
				<button type="submit" className={styles.send} disabled={pending}>
					{t('link.surveySend')}
				</button>
			</div>
		</Form>
	)
}
