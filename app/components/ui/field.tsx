import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react'
import { getInputProps, getSelectProps } from '@conform-to/react'
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

/** A plain form's field errors, already translated by the server, announced when they appear. */
export function FieldErrors({ id, errors }: { id: string; errors: string[] }) {
	if (errors.length === 0) return null
	return (
		<ul id={id} className={styles.errors} role="alert">
			{[...new Set(errors)].map((error) => (
				<li key={error}>{error}</li>
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

export type ConformField = Parameters<typeof getInputProps>[0]
type TextType = Exclude<Parameters<typeof getInputProps>[1]['type'], 'checkbox' | 'radio'>
type InputAttributes = InputHTMLAttributes<HTMLInputElement>

/** The way to pass a conform field: its input's props, errors and error id are read from it; the rest goes onto the input. */
type ConformFieldProps = Pick<FieldProps, 'label' | 'help'> &
	Omit<InputAttributes, 'type' | 'id' | 'name' | 'form'> & { field: ConformField; type: TextType; inputRef?: Ref<HTMLInputElement>; input?: never }

/** The older way, for an input conform does not hold (a filter) or a form not moved yet: the input's props, errors and error id each given. */
type InputFieldProps = FieldProps & { input: InputAttributes & { key?: string; ref?: Ref<HTMLInputElement> }; field?: never }

/** A labelled input with its errors beside it: `field={fields.title} type="text"` and any other input props. */
export function Field(props: ConformFieldProps | InputFieldProps) {
	if (props.input) {
		const { key, ...inputProps } = props.input
		return (
			<FieldFrame label={props.label} help={props.help} id={inputProps.id} errors={props.errors} errorId={props.errorId}>
				<input key={key} className={styles.input} {...inputProps} />
			</FieldFrame>
		)
	}
	const { label, help, field, type, inputRef, ...extra } = props
	const { key, ...inputProps } = getInputProps(field, { type })
	return (
		<FieldFrame label={label} help={help} id={inputProps.id} errors={field.errors} errorId={field.errorId}>
			<input key={key} ref={inputRef} className={styles.input} {...inputProps} {...extra} />
		</FieldFrame>
	)
}

function FieldFrame({ label, help, id, errors, errorId, children }: FieldProps & { id: string | undefined; children: ReactNode }) {
	return (
		<div className={styles.field}>
			<label className={styles.label} htmlFor={id}>
				{label}
			</label>
			{children}
			{help ? <p className={styles.help}>{help}</p> : null}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

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
			field={field}
			type="password"
			autoComplete={autoComplete}
			required
			inputRef={ref}
		/>
	)
}

type SelectAttributes = SelectHTMLAttributes<HTMLSelectElement>

/** A labelled select with its errors: `field={fields.role}` and any other select props, or (the older way) `select`, `errors` and `errorId`. */
export function SelectField(
	props:
		| (Pick<FieldProps, 'label' | 'help'> & Omit<SelectAttributes, 'id' | 'name' | 'form'> & { field: ConformField; select?: never; children: ReactNode })
		| (FieldProps & { select: SelectAttributes & { key?: string }; field?: never; children: ReactNode }),
) {
	if (props.select) {
		const { key, ...selectProps } = props.select
		return (
			<FieldFrame label={props.label} help={props.help} id={selectProps.id} errors={props.errors} errorId={props.errorId}>
				<select key={key} className={styles.input} {...selectProps}>
					{props.children}
				</select>
			</FieldFrame>
		)
	}
	const { label, help, field, children, ...extra } = props
	const { key, ...selectProps } = getSelectProps(field)
	return (
		<FieldFrame label={label} help={help} id={selectProps.id} errors={field.errors} errorId={field.errorId}>
			<select key={key} className={styles.input} {...selectProps} {...extra}>
				{children}
			</select>
		</FieldFrame>
	)
}

export { form as formClass } from './field.css.ts'
