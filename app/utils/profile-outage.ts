import { isRouteErrorResponse } from '@remix-run/react'

/** The body of the 503 a protected page answers when the API could not give the user's profile. */
export const profileUnavailable = { profileUnavailable: true } as const

export function isProfileUnavailable(error: unknown): boolean {
	return isRouteErrorResponse(error) && error.status === 503 && (error.data as Partial<typeof profileUnavailable> | null)?.profileUnavailable === true
}
