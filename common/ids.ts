/** A UUID as PostgreSQL writes it (lower case), for patterns that hold one. */
export const uuidPattern = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

const uuid = new RegExp(`^${uuidPattern}$`, 'i')

/** Whether `value` is a UUID, in any case: one that is not must never reach PostgreSQL as a uuid (it would refuse the statement). */
export const isUuid = (value: string): boolean => uuid.test(value)
