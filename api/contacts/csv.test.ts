import { describe, expect, test } from 'vitest'
import { type HttpError } from '#api/http/errors.ts'
import { csvField, csvLine, readContactsCsv } from './csv.ts'

describe('csvField', () => {
	test.each([
		['plain', 'plain'],
		['with, comma', '"with, comma"'],
		['with "quotes"', '"with ""quotes"""'],
		['two\nlines', '"two\nlines"'],
		['=1+1', "'=1+1"],
		['@SUM(A1)', "'@SUM(A1)"],
		['-2+3', "'-2+3"],
		['+201012345678', '+201012345678'],
		['', ''],
	])('%j → %j', (value, expected) => {
		expect(csvField(value)).toBe(expected)
	})

	test('a line ends in CRLF; null is an empty field', () => {
		expect(csvLine(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n')
	})
})

describe('readContactsCsv', () => {
	test('headers in any case, a few common spellings; quotes taken off what an export guarded', () => {
		expect(readContactsCsv('\uFEFF NAME ,E-Mail,Phone Number,Other\n"\'=x",A@B.C,\'+1,zzz\n')).toEqual([
			{ row: 2, cells: { name: '=x', email: 'A@B.C', phone: '+1' }, extraFields: false },
		])
	})

	test('skips blank rows but keeps counting them', () => {
		expect(readContactsCsv('name\n\nA\n , \nB').map((record) => [record.row, record.cells.name])).toEqual([
			[3, 'A'],
			[5, 'B'],
		])
	})

	test('a file it cannot read is a 400 with a key', () => {
		for (const [text, key] of [
			['', 'contacts:errors.csvEmpty'],
			['email\nx', 'contacts:errors.csvMissingName'],
			['name\n"open', 'contacts:errors.csvMalformed'],
			['name\nZo\uFFFD', 'contacts:errors.csvNotUtf8'],
		]) {
			expect(() => readContactsCsv(text ?? '')).toThrow(expect.objectContaining({ statusCode: 400, messageKey: key }) as HttpError)
		}
	})
})
