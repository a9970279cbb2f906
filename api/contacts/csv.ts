import { CsvError } from 'csv-parse'
import { parse } from 'csv-parse/sync'
import { HttpError } from '#api/http/errors.ts'

/** The columns an import reads (others are ignored), and those an export writes. */
export const importColumns = ['name', 'email', 'phone', 'company', 'labels', 'notes'] as const
export type ImportColumn = (typeof importColumns)[number]
export const exportColumns = ['name', 'email', 'phone', 'company', 'labels', 'notes', 'created_at'] as const

/** Labels share one cell, separated by semicolons (titles cannot contain one). */
export const labelSeparator = ';'

export const maximumImportRows = 100_000

/** One data row: `row` as a spreadsheet numbers it (the header is row 1), cells by column, trimmed. */
export type CsvRecord = { row: number; cells: Partial<Record<ImportColumn, string>>; extraFields: boolean }

// Spreadsheets run a cell that starts like a formula: exports neutralise it with a quote, imports take the quote off again.
const formulaStart = /^[=+\-@\t\r]/

function columnOf(header: string): ImportColumn | undefined {
	const name = header
		.trim()
		.toLowerCase()
		.replace(/[\s_-]+/g, '')
	if (name === 'email' || name === 'emailaddress') return 'email'
	if (name === 'phone' || name === 'phonenumber' || name === 'mobile') return 'phone'
	return importColumns.find((column) => column === name)
}

/**
 * Reads an import: UTF-8 text (a BOM is tolerated) with a header row naming at least `name`,
 * RFC 4180 quoting (commas, quotes and line breaks inside quoted fields). Rows whose every cell is
 * empty are skipped. A file that cannot be read as a whole is a 400.
 */
export function readContactsCsv(text: string): CsvRecord[] {
	// The body was decoded as UTF-8: replacement characters mean it was something else (often Windows-1252 from Excel), NULs UTF-16.
	if (text.includes('\uFFFD') || text.includes('\u0000')) throw new HttpError(400, 'contacts:errors.csvNotUtf8')
	let rows: string[][]
	try {
		rows = parse(text, { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false })
	} catch (error) {
		if (error instanceof CsvError) {
			const line = typeof error.lines === 'number' ? error.lines : 1
			throw new HttpError(400, 'contacts:errors.csvMalformed', { values: { line }, details: { line } })
		}
		throw error
	}
	const [header, ...data] = rows
	if (!header || header.every((cell) => cell.trim() === '')) throw new HttpError(400, 'contacts:errors.csvEmpty')
	const columns = header.map(columnOf)
	if (!columns.includes('name')) throw new HttpError(400, 'contacts:errors.csvMissingName')
	if (data.length > maximumImportRows)
		throw new HttpError(400, 'contacts:errors.csvTooManyRows', { values: { maximum: maximumImportRows, count: maximumImportRows } })

	const records: CsvRecord[] = []
	data.forEach((fields, index) => {
		if (fields.every((field) => field.trim() === '')) return
		const cells: CsvRecord['cells'] = {}
		fields.forEach((field, position) => {
			const column = columns[position]
			if (column && cells[column] === undefined) cells[column] = field.trim().replace(/^'(?=[=+\-@])/, '')
		})
		records.push({ row: index + 2, cells, extraFields: fields.length > header.length })
	})
	return records
}

/** One CSV field: quoted when it must be, and never read as a formula by a spreadsheet (a plain number such as a phone stays as is). */
export function csvField(value: string | null | undefined): string {
	let text = value ?? ''
	if (formulaStart.test(text) && !/^[+-]?\d+$/.test(text)) text = `'${text}`
	return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A CSV line (CRLF, as RFC 4180 and Excel want it). */
export function csvLine(fields: Array<string | null | undefined>): string {
	return `${fields.map(csvField).join(',')}\r\n`
}
