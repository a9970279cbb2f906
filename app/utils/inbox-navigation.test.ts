import { describe, expect, test } from 'vitest'
import { inboxNavigation, threadAddress } from './inbox-navigation.ts'

const at = (address: string) => new URL(address, 'http://localhost')
const way = (shown: string, next: string) => inboxNavigation(at(shown), at(next))

describe('inboxNavigation', () => {
	test('another conversation of the same list, older messages or the templates: its thread alone', () => {
		expect(way('/en-us/dashboard/conversations?status=open', '/en-us/dashboard/conversations?status=open&conversation=2')).toBe('thread')
		expect(way('/en-us/dashboard/conversations?conversation=1&status=open', '/en-us/dashboard/conversations?status=open&conversation=2')).toBe('thread')
		expect(way('/en-us/dashboard/conversations?conversation=2', '/en-us/dashboard/conversations?conversation=2&before=abc')).toBe('thread')
		expect(way('/en-us/dashboard/conversations?conversation=2', '/en-us/dashboard/conversations?conversation=2&templates')).toBe('thread')
		expect(way('/en-us/dashboard/conversations?conversation=2', '/en-us/dashboard/conversations')).toBe('thread')
	})

	test('the pane a phone shows: nothing to load', () => {
		expect(way('/en-us/dashboard/conversations?conversation=2', '/en-us/dashboard/conversations?conversation=2&pane=contact')).toBe('none')
	})

	test('the same address again, another list, another language: the whole page', () => {
		expect(way('/en-us/dashboard/conversations?conversation=2', '/en-us/dashboard/conversations?conversation=2')).toBe('page')
		expect(way('/en-us/dashboard/conversations?conversation=2', '/en-us/dashboard/conversations?conversation=2&status=resolved')).toBe('page')
		expect(way('/en-us/dashboard/conversations?search=a&conversation=2', '/en-us/dashboard/conversations?search=b&conversation=2')).toBe('page')
		expect(way('/en-us/dashboard/conversations', '/en-us/dashboard/conversations?after=cursor')).toBe('page')
		expect(way('/en-us/dashboard/conversations?conversation=2', '/ar-eg/dashboard/conversations?conversation=3')).toBe('page')
	})
})

test('threadAddress keeps the query and names the workspace', () => {
	expect(threadAddress(at('/ar-eg/dashboard/conversations?status=all&conversation=7&templates'), 'w1')).toBe(
		'/ar-eg/dashboard/conversations/thread?status=all&conversation=7&templates=&workspace=w1',
	)
})
