import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react'
import { getInputProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import * as styles from './field.css.ts'

/**
 * Form errors are translation keys when they come from a zod schema (the browser's or the
 * action's) and finished sentences when the API wrote them: translate the former only. A key is
 * looked up in `common` first, then in the namespace it names (`channels:validation.slug`, which
 * the API words alike), when the page has loaded it.
 */
export function useErrorText() {
	const { t, i18n } = useTranslation()
	return (message: string) => {
		const key = message.replace(/^\w+:/, '')
		if (i18n.exists(key)) return t(key)
		return key !== message && i18n.exists(message) ? t(message) : message
	}
}

export function ErrorList({ id, errors, className = styles.errors }: { id?: string; errors?: string[]; className?: string }) {
	const text = useErrorText()
	if (!errors?.length) return null
	return (
		<ul id={id} className={className}>
			{errors.map((error) => (
				<li key={error}>{text(error)}</li>
			))}
		</ul>
	)
}

/** The form's own errors (not tied to a field), announced to screen readers. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] }) {
	if (!errors?.length) return null
	return (
		<div role="alert">
			<ErrorList id={id} errors={errors} className={styles.formErrors} />
		</div>
	)
}

type FieldProps = {
	label: ReactNode
	errors?: string[]
	errorId?: string
	help?: ReactNode
}

/** A labelled input with its errors beside it; pass conform's `getInputProps(...)` as `input`. */
export function Field({
	label,
	errors,
	errorId,
	help,
	input,
}: FieldProps & { input: InputHTMLAttributes<HTMLInputElement> & { key?: string; ref?: React.Ref<HTMLInputElement> } }) {
	const { key, ...inputProps } = input
	return (
		<div className={styles.field}>
			<label className={styles.label} htmlFor={inputProps.id}>
				{label}
			</label>
			<input key={key} className={styles.input} {...inputProps} />
			{help ? <p className={styles.help}>{help}</p> : null}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

type ConformField = Parameters<typeof getInputProps>[0]

/**
 * A password input, emptied after each answer of the action: typed values are kept on error,
 * passwords never (without JavaScript the server's HTML already leaves them out).
 */
export function PasswordField({
	label,
	field,
	autoComplete,
	help,
	result,
}: {
	label: ReactNode
	field: ConformField
	autoComplete: 'current-password' | 'new-password'
	help?: ReactNode
	result: unknown
}) {
	const ref = useRef<HTMLInputElement>(null)
	useEffect(() => {
		if (result && ref.current) ref.current.value = ''
	}, [result])
	return (
		<Field
			label={label}
			// The rules once: the hint until the password breaks some, then only the ones it breaks.
			help={field.errors?.length ? undefined : help}
			errors={field.errors}
			errorId={field.errorId}
			input={{ ...getInputProps(field, { type: 'password' }), autoComplete, required: true, ref }}
		/>
	)
}

/** A labelled select with its errors. */
export function SelectField({
	label,
	errors,
	errorId,
	help,
	select,
	children,
}: FieldProps & { select: SelectHTMLAttributes<HTMLSelectElement> & { key?: string }; children: ReactNode }) {
	const { key, ...selectProps } = select
	return (
		<div className={styles.field}>
			<label className={styles.label} htmlFor={selectProps.id}>
				{label}
			</label>
			<select key={key} className={styles.input} {...selectProps}>
				{children}
			</select>
			{help ? <p className={styles.help}>{help}</p> : null}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

export { form as formClass } from './field.css.ts'
