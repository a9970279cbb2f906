import { input } from './field.css.ts'

/**
 * One select of a filter form (a GET form with other fields): its first choice, `any`, has no
 * value and filters nothing; the others are the choices. `className` is the filter form's own.
 */
export function AnyOfFilter({
	className,
	id,
	label,
	name,
	value,
	any,
	choices,
}: {
	className: string
	id: string
	label: string
	name: string
	value: string
	any: string
	choices: Array<{ value: string; label: string }>
}) {
	return (
		<div className={className}>
			<label htmlFor={id}>{label}</label>
			<select id={id} name={name} defaultValue={value} className={input}>
				<option value="">{any}</option>
				{choices.map((choice) => (
					<option key={choice.value} value={choice.value}>
						{choice.label}
					</option>
				))}
			</select>
		</div>
	)
}
