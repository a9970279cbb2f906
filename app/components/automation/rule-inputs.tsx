import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorList } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as styles from './automation.css.ts'

// The inputs of a rule's form, each with its label and errors beside it.

export type Option = { value: string; label: ReactNode }

/** A labelled select of `options`; a value the options no longer hold (a label deleted since) stays, named as gone. */
export function Choice({ label, field, options, placeholder }: { label: string; field: FieldMetadata<unknown>; options: Option[]; placeholder?: string }) {
	const { t } = useTranslation('automation')
	const { key, ...props } = getSelectProps(field)
	const current = typeof field.initialValue === 'string' ? field.initialValue : ''
	const gone = current && !options.some((option) => option.value === current) ? current : null
	return (
		<div className={fieldStyles.field}>
			<label className={fieldStyles.label} htmlFor={field.id}>
				{label}
			</label>
			<select key={key} {...props} className={fieldStyles.input}>
				{placeholder !== undefined ? <option value="">{placeholder}</option> : null}
				{options.map((option) => (
					<option key={option.value} value={option.value}>
						{option.label}
					</option>
				))}
				{gone ? <option value={gone}>{t('form.gone')}</option> : null}
			</select>
			<ErrorList id={field.errorId} errors={field.errors} />
		</div>
	)
}

/** A labelled text box; `wide` takes the whole row. */
export function TextBox({
	label,
	field,
	maxLength,
	help,
	wide = false,
	type = 'text',
}: {
	label: string
	field: FieldMetadata<unknown>
	maxLength?: number
	help?: string
	wide?: boolean
	type?: 'text' | 'number'
}) {
	const { key, ...props } = getInputProps(field, { type })
	const helpId = `${field.id}-help`
	return (
		<div className={wide ? `${fieldStyles.field} ${styles.wide}` : fieldStyles.field}>
			<label className={fieldStyles.label} htmlFor={field.id}>
				{label}
			</label>
			<input
				key={key}
				{...props}
				maxLength={maxLength}
				dir={type === 'text' ? 'auto' : undefined}
				autoComplete="off"
				aria-describedby={[help ? helpId : null, props['aria-describedby']].filter(Boolean).join(' ') || undefined}
				className={fieldStyles.input}
			/>
			{help ? (
				<p id={helpId} className={fieldStyles.help}>
					{help}
				</p>
			) : null}
			<ErrorList id={field.errorId} errors={allErrorsOf(field)} />
		</div>
	)
}

/** A message's text. */
export function TextArea({ label, field, help }: { label: string; field: FieldMetadata<unknown>; help?: string }) {
	const { key, ...props } = getTextareaProps(field)
	return (
		<div className={`${fieldStyles.field} ${styles.wide}`}>
			<label className={fieldStyles.label} htmlFor={field.id}>
				{label}
			</label>
			<textarea key={key} {...props} rows={3} dir="auto" className={fieldStyles.textarea} />
			{help ? <p className={fieldStyles.help}>{help}</p> : null}
			<ErrorList id={field.errorId} errors={field.errors} />
		</div>
	)
}

/** A field's own errors and those of its items (a word too long, an id of another workspace at `labelIds[1]`). */
export function allErrorsOf(field: FieldMetadata<unknown>): string[] {
	return [...new Set(Object.values(field.allErrors).flat())]
}
