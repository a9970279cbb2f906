import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max'

export { isSupportedCountry, type CountryCode }

/** A country code that phone numbers can be read in, or undefined (`AQ`, none). */
export function phoneCountry(code: string | undefined): CountryCode | undefined {
	return code && isSupportedCountry(code) ? code : undefined
}

/**
 * A phone number in E.164 (`+201012345678`), or undefined when it is not a valid number.
 * Without `country` it needs its international prefix (`+` or `00`).
 */
export function normalizePhone(input: string, country?: CountryCode): string | undefined {
	const text = country ? input : input.trim().replace(/^00/, '+')
	const parsed = parsePhoneNumberFromString(text, country ? { defaultCountry: country } : undefined)
	return parsed?.isValid() ? parsed.number : undefined
}
