import { z } from 'zod'
import { areaAccesses, maxExpiryDays, tokenAreas, tokenKinds, type TokenArea, type TokenScope } from '#common/access-tokens.ts'
import { text } from '#app/utils/forms.ts'

export const tokenNameLimit = 80
/** The expiries the form offers, in days; none: the token lives until revoked. */
export const expiryChoices = [7, 30, 90, 365] as const

const access = z.enum(areaAccesses, { invalid_type_error: 'forms.invalid' }).default('none')

/** A new token's form: its kind, a name, none / read / read and write per area (one at least), and an expiry. */
export const tokenFormSchema = z
	.object({
		kind: z.enum(tokenKinds),
		name: text(tokenNameLimit),
		expiresInDays: z.number({ invalid_type_error: 'forms.number' }).int('forms.number').min(1, 'forms.range').max(maxExpiryDays, 'forms.range').optional(),
		...(Object.fromEntries(tokenAreas.map((area) => [area, access])) as Record<TokenArea, typeof access>),
	})
	.refine((value) => tokenAreas.some((area) => value[area] !== 'none'), { message: 'integrations:tokens.errors.noScope', path: [] })

/** A token's new name (`?rename=`), as at its creation. */
export const tokenRenameSchema = z.object({ tokenId: z.string({ required_error: 'forms.required' }), name: text(tokenNameLimit) })

export type TokenForm = z.output<typeof tokenFormSchema>

/** The scopes the API is sent: an area's write scope stands for its reading too. */
export const scopesOf = (form: TokenForm): TokenScope[] =>
	tokenAreas.flatMap((area) => (form[area] === 'none' ? [] : [`${area}:${form[area] === 'write' ? 'write' : 'read'}` as TokenScope]))
