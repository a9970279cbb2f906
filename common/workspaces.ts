/** A workspace's name and time zone as the API takes them, which the workspace forms check first. */
export const workspaceLimits = { nameMin: 2, nameMax: 60, timezone: 64 } as const
