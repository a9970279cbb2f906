import { timeZoneCountries } from './timezone-countries.ts'

/** The country of an IANA time zone (`Africa/Cairo` → `EG`); none for zones of no country (`UTC`). */
export function countryOfTimeZone(zone: string): string | undefined {
	return timeZoneCountries[zone]
}

/**
 * Where a workspace's local phone numbers are from (a contact's phone without its prefix): the
 * country it chose, else the one of its time zone.
 */
export function workspaceCountry(workspace: { country: string | null; timezone: string }): string | undefined {
	return workspace.country ?? countryOfTimeZone(workspace.timezone)
}
