/** Every IANA time zone this server knows, UTC first: what the workspace forms offer. */
export const timezones: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')]
