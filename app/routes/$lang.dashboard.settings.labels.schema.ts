import { z } from 'zod'
import { labelSchema } from '#app/utils/labels.ts'

export const saveSchema = labelSchema.extend({ labelId: z.string().optional() })
