import path from 'node:path'
import { sql } from 'kysely'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { testDb } from './harness.ts'

const schemaFile = path.resolve(import.meta.dirname, '../../api/db/schema.ts')

/** Kysely's CamelCasePlugin, as api/db/database.ts uses it: `created_at` → `createdAt`. */
const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())

/** What a column reads as: a ColumnType's (Generated's) select type, or the type itself. */
function selectType(checker: ts.TypeChecker, type: ts.Type): ts.Type {
	const select = type.getProperty('__select__')
	return select ? checker.getTypeOfSymbol(select) : type
}

/** api/db/schema.ts's `Database` as the compiler reads it: each table's columns, and whether each may be null. */
function declaredTables(): Map<string, Map<string, boolean>> {
	const program = ts.createProgram([schemaFile], {
		strict: true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.NodeNext,
		moduleResolution: ts.ModuleResolutionKind.NodeNext,
		skipLibCheck: true,
		noEmit: true,
	})
	const checker = program.getTypeChecker()
	const source = program.getSourceFile(schemaFile)!
	const database = source.statements.find(
		(statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'Database',
	)!
	const tables = new Map<string, Map<string, boolean>>()
	for (const table of checker.getTypeAtLocation(database).getProperties()) {
		const columns = new Map<string, boolean>()
		for (const column of checker.getTypeOfSymbol(table).getProperties()) {
			const type = selectType(checker, checker.getTypeOfSymbol(column))
			const parts = type.isUnion() ? type.types : [type]
			columns.set(
				column.name,
				parts.some((part) => (part.flags & ts.TypeFlags.Null) !== 0),
			)
		}
		tables.set(table.name, columns)
	}
	return tables
}

test('api/db/schema.ts names every table and column of the migrated database, with its nullability, and nothing else', async () => {
	const { rows } = await sql<{ table: string; column: string; nullable: 'YES' | 'NO' }>`
		select columns.table_name as "table", columns.column_name as "column", columns.is_nullable as nullable
		from information_schema.columns
		join information_schema.tables on tables.table_schema = columns.table_schema and tables.table_name = columns.table_name
		where columns.table_schema = 'public' and tables.table_type = 'BASE TABLE' and columns.table_name not like 'kysely_migration%'
		order by 1, 2
	`.execute(testDb())
	const migrated = new Map<string, Map<string, boolean>>()
	for (const row of rows) {
		const table = migrated.get(camelCase(row.table)) ?? new Map<string, boolean>()
		table.set(camelCase(row.column), row.nullable === 'YES')
		migrated.set(camelCase(row.table), table)
	}
	const declared = declaredTables()
	const described = (tables: Map<string, Map<string, boolean>>) =>
		Object.fromEntries(
			[...tables]
				.sort(([a], [b]) => a.localeCompare(b))
				.map(([table, columns]) => [table, Object.fromEntries([...columns].sort(([a], [b]) => a.localeCompare(b)))]),
		)
	expect(described(declared)).toEqual(described(migrated))
	expect(migrated.size).toBeGreaterThan(20)
})
