/** A team's rules, which the API checks and the teams page checks first. */
export const teamLimits = { name: 80, description: 500, members: 500 } as const
