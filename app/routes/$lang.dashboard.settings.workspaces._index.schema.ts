import { z } from 'zod'
import { workspaceSchema } from '#app/components/workspace-form.schema.ts'

export const updateSchema = workspaceSchema.extend({ workspaceId: z.string() })

export const deleteSchema = z.object({ workspaceId: z.string(), confirmName: z.string({ required_error: 'forms.required' }) })
