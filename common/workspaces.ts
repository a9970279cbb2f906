/** A workspace's name and time zone as the API takes them, which the workspace forms check first. */
export const workspaceLimits = { nameMin: 2, nameMax: 60, timezone: 64 } as const

/** An agent's capacity (open conversations at most) and the workspace's default, as the API takes them. */
export const capacityLimits = { min: 0, max: 1000 } as const
