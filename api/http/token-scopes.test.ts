import { describe, expect, test } from 'vitest'
import { accessOf, scopesAllow } from '#common/access-tokens.ts'
import { isWriteMethod, tokenRuleFor } from './token-scopes.ts'

const workspaceId = '0b8a3a52-3f56-4d6f-9a5e-0d1f4f0f9c11'

describe('the rule of the route a token reaches', () => {
	test('a literal segment wins over a parameter, and the workspace id is read from the path', () => {
		expect(tokenRuleFor('GET', `/v1/workspaces/${workspaceId}/contacts/export`)).toEqual({ rule: 'contacts', workspaceId })
		expect(tokenRuleFor('GET', `/v1/workspaces/${workspaceId}/members/me`)).toEqual({ rule: 'never', workspaceId })
		expect(tokenRuleFor('GET', `/v1/workspaces/${workspaceId}/members`)).toEqual({ rule: 'settings', workspaceId })
		expect(tokenRuleFor('POST', `/v1/workspaces/${workspaceId}/conversations/12/read`)).toEqual({ rule: 'never', workspaceId })
	})

	test('HEAD is a GET; a trailing slash is the same route; what no route answers has no rule', () => {
		expect(tokenRuleFor('HEAD', `/v1/workspaces/${workspaceId}/labels`)?.rule).toBe('settings')
		expect(tokenRuleFor('GET', `/v1/workspaces/${workspaceId}/labels/`)?.rule).toBe('settings')
		expect(tokenRuleFor('GET', '/v1/nowhere')).toBeUndefined()
		expect(tokenRuleFor('PATCH', '/v1/auth/profile')).toEqual({ rule: 'never', workspaceId: undefined })
		expect(isWriteMethod('HEAD')).toBe(false)
		expect(isWriteMethod('DELETE')).toBe(true)
	})

	test('write implies read, per area', () => {
		expect(accessOf(['contacts:read', 'contacts:write'], 'contacts')).toBe('write')
		expect(scopesAllow(['contacts:write'], 'contacts', false)).toBe(true)
		expect(scopesAllow(['contacts:read'], 'contacts', true)).toBe(false)
		expect(scopesAllow(['contacts:write'], 'campaigns', false)).toBe(false)
	})
})
