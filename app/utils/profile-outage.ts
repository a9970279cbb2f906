import { isRouteErrorResponse } from '@remix-run/react'

/** The body of the 503 a protected page answers when the API could not give the user's profile. */
export const profileUnavailable = { profileUnavailable: true } as const

type Outage = Partial<typeof profileUnavailable> & { databaseAway?: boolean }

export function isProfileUnavailable(error: unknown): boolean {
	return isRouteErrorResponse(error) && error.status === 503 && (error.data as Outage | null)?.profileUnavailable === true
}

/** The outage is the API's database, away for a moment (the API answered 503), not the API itself. */
export function isDatabaseAway(error: unknown): boolean {
	return isProfileUnavailable(error) && (error as { data: Outage }).data.databaseAway === true
}
