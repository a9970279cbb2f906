import { z } from 'zod'
import { labelTitlePattern } from '#common/labels.ts'
import { cannedLimits } from '#common/canned-responses.ts'

export const limits = cannedLimits

/** One word (letters of any script, digits, `-`, `_`), typed after `/` in the composer. */
const shortCode = z.string().trim().min(1).max(limits.shortCode).regex(labelTitlePattern, 'inbox:validation.shortCode')

// A message body's limit: a canned response becomes one.
const content = z.string().trim().min(1).max(limits.content)

export const createCannedBody = z.object({ shortCode, content }).strict()

export const updateCannedBody = z.object({ shortCode: shortCode.optional(), content: content.optional() }).strict()

export const cannedParams = z.object({ id: z.string().uuid(), cannedId: z.string().uuid() })

export const listCannedQuery = z.object({ search: z.string().trim().max(limits.search).optional() }).strict()
