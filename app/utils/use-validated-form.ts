import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type z } from 'zod'

type Options<Schema extends z.ZodTypeAny> = Omit<Parameters<typeof useForm<z.input<Schema>, z.output<Schema>, string[]>>[0], 'onValidate' | 'lastResult'> & {
	lastResult?: SubmissionResult<string[]> | null
}

/**
 * A conform form checked in the browser with the same zod schema as its action: on leaving a
 * field, then again as the user types.
 */
export function useValidatedForm<Schema extends z.ZodTypeAny>(schema: Schema, options: Options<Schema>) {
	return useForm<z.input<Schema>, z.output<Schema>, string[]>({
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		...options,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
	})
}
