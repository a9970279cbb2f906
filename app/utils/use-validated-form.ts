import { useForm, type SubmissionResult } from '@conform-to/react'
import { useEffect, useState } from 'react'
import { type z } from 'zod'

type FormOptions<Schema extends z.ZodTypeAny> = Parameters<typeof useForm<z.input<Schema>, z.output<Schema>, string[]>>[0]

type Options<Schema extends z.ZodTypeAny> = Omit<FormOptions<Schema>, 'onValidate' | 'lastResult'> & {
	lastResult?: SubmissionResult<string[]> | null
	/** The words of zod's own issues (a field left empty), when the schema cannot name them itself; the action parses with it too. */
	errorMap?: z.ZodErrorMap
}

/**
 * A conform form checked in the browser with the same zod schema as its action: on leaving a
 * field, then again as the user types. `loadSchema` imports the schema's module, so zod loads
 * after the page instead of with it (about 15 KB of gzip); until then the action checks alone.
 * Give a function defined once per module (it is an effect's dependency).
 */
export function useValidatedForm<Schema extends z.ZodTypeAny>(loadSchema: () => Promise<Schema>, { errorMap, ...options }: Options<Schema>) {
	const [onValidate, setOnValidate] = useState<FormOptions<Schema>['onValidate']>()
	useEffect(() => {
		let current = true
		void Promise.all([loadSchema(), import('@conform-to/zod')])
			.then(([schema, { parseWithZod }]) => {
				if (current)
					setOnValidate(
						() =>
							({ formData }: { formData: FormData }) =>
								parseWithZod(formData, { schema, errorMap }),
					)
			})
			.catch((error: unknown) => console.warn('Form checks stay on the server: could not load them', error))
		return () => {
			current = false
		}
	}, [loadSchema, errorMap])
	return useForm<z.input<Schema>, z.output<Schema>, string[]>({
		// Before the schema is here, a blur would ask conform to validate on the server.
		shouldValidate: onValidate ? 'onBlur' : 'onSubmit',
		shouldRevalidate: onValidate ? 'onInput' : 'onSubmit',
		...options,
		onValidate,
	})
}
