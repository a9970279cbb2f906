import { z } from 'zod'
import { maxExpiryDays, tokenKinds, tokenScopes, type TokenScope } from '#common/access-tokens.ts'

export const tokenLimits = { name: 80 } as const

export const createTokenBody = z
	.object({
		kind: z.enum(tokenKinds),
		name: z.string().trim().min(1).max(tokenLimits.name),
		scopes: z
			.array(z.enum(tokenScopes as [TokenScope, ...TokenScope[]]))
			.min(1, 'integrations:tokens.errors.noScope')
			.max(tokenScopes.length),
		expiresInDays: z.number().int().min(1).max(maxExpiryDays).optional(),
	})
	.strict()
export type CreateTokenBody = z.output<typeof createTokenBody>

/** A token's new name: as at its creation. */
export const renameTokenBody = createTokenBody.pick({ name: true }).strict()

export const tokenParams = z.object({ id: z.string().uuid(), tokenId: z.string().uuid() })
