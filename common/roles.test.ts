import { describe, expect, test } from 'vitest'
import { canManage, isOwner, mayChangeMember, mayResetTwoFactor, roles, type Role } from './roles.ts'

// PRODUCT.md, "Roles": the owner and admins manage; no one changes the owner; an admin resets an agent's two-step sign-in only.
describe('what each role may do', () => {
	test.each([
		['owner', true, true],
		['admin', true, false],
		['agent', false, false],
	] as const)('%s: manages %s, owns %s', (role, manages, owns) => {
		expect(canManage(role)).toBe(manages)
		expect(isOwner(role)).toBe(owns)
	})

	test('changing and resetting another member, every pair of roles', () => {
		const pairs = roles.flatMap((by) => roles.map((of) => [by, of] as [Role, Role]))
		expect(pairs.filter(([by, of]) => mayChangeMember(by, of))).toEqual([
			['owner', 'admin'],
			['owner', 'agent'],
			['admin', 'admin'],
			['admin', 'agent'],
		])
		expect(pairs.filter(([by, of]) => mayResetTwoFactor(by, of))).toEqual([
			['owner', 'admin'],
			['owner', 'agent'],
			['admin', 'agent'],
		])
	})
})
