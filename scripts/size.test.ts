import { describe, expect, it } from 'vitest'
import { collectAssets, formatReport, layoutsOf, measureManifest, moduleKind, sourcePath, type Manifest } from './size.ts'

// A small client build: two routes sharing a chunk, a cycle, a dynamic import and CSS on the way.
const manifest: Manifest = {
	'node_modules/@remix-run/dev/dist/config/defaults/entry.client.tsx': {
		file: 'assets/entry.client-A.js',
		isEntry: true,
		imports: ['_react-B.js', '_components-C.js'],
	},
	'app/root.tsx?__remix-build-client-route': {
		file: 'assets/root-D.js',
		isEntry: true,
		imports: ['_react-B.js', '_components-C.js'],
		css: ['assets/root-D.css'],
	},
	'app/routes/_index.tsx': {
		file: 'assets/_index-E.js',
		isEntry: true,
		imports: ['_react-B.js', '_table-F.js'],
		dynamicImports: ['_chart-G.js'],
	},
	'app/routes/$lang.contacts.tsx': {
		file: 'assets/contacts-H.js',
		isEntry: true,
		imports: ['_table-F.js', '_components-C.js'],
		css: ['assets/contacts-H.css'],
	},
	'_react-B.js': { file: 'assets/react-B.js' },
	'_components-C.js': { file: 'assets/components-C.js', imports: ['_react-B.js'], css: ['assets/components-C.css'] },
	// `_table` and `_sort` import each other.
	'_table-F.js': { file: 'assets/table-F.js', imports: ['_sort-I.js'], css: ['assets/table-F.css'] },
	'_sort-I.js': { file: 'assets/sort-I.js', imports: ['_table-F.js'] },
	'_chart-G.js': { file: 'assets/chart-G.js', isDynamicEntry: true, css: ['assets/chart-G.css'] },
	'app/styles/theme.css.ts': { file: 'assets/theme-J.css', src: 'app/styles/theme.css.ts' },
}

const sizes: Record<string, number> = {
	'assets/entry.client-A.js': 1000,
	'assets/react-B.js': 40_000,
	'assets/components-C.js': 5000,
	'assets/components-C.css': 700,
	'assets/root-D.js': 2000,
	'assets/root-D.css': 300,
	'assets/_index-E.js': 1500,
	'assets/table-F.js': 3000,
	'assets/table-F.css': 400,
	'assets/sort-I.js': 600,
	'assets/contacts-H.js': 2500,
	'assets/contacts-H.css': 200,
	'assets/chart-G.js': 90_000,
	'assets/chart-G.css': 1000,
}

const gzipSize = (file: string) => {
	const size = sizes[file]
	if (size === undefined) throw new Error(`unexpected file ${file}`)
	return size
}

describe('collectAssets', () => {
	it('follows static imports recursively, once per file, and leaves dynamic imports out', () => {
		expect(collectAssets(manifest, ['app/routes/_index.tsx'])).toEqual({
			js: ['assets/_index-E.js', 'assets/react-B.js', 'assets/table-F.js', 'assets/sort-I.js'],
			css: ['assets/table-F.css'],
		})
	})

	it('gathers CSS through imports and merges several starting points', () => {
		expect(collectAssets(manifest, ['app/root.tsx?__remix-build-client-route', 'app/routes/$lang.contacts.tsx'])).toEqual({
			js: ['assets/root-D.js', 'assets/react-B.js', 'assets/components-C.js', 'assets/contacts-H.js', 'assets/table-F.js', 'assets/sort-I.js'],
			css: ['assets/root-D.css', 'assets/components-C.css', 'assets/contacts-H.css', 'assets/table-F.css'],
		})
	})

	it('counts a chunk whose file is a stylesheet as CSS', () => {
		expect(collectAssets(manifest, ['app/styles/theme.css.ts'])).toEqual({ js: [], css: ['assets/theme-J.css'] })
	})

	it('rejects a key the manifest does not have', () => {
		expect(() => collectAssets(manifest, ['_missing.js'])).toThrow(/_missing\.js/)
	})
})

describe('moduleKind', () => {
	it('reads the keys Remix gives route modules, with a query', () => {
		expect(sourcePath('app/routes/$lang._index.tsx?__remix-build-client-route')).toBe('app/routes/$lang._index.tsx')
		expect(moduleKind('app/routes/$lang._index.tsx?__remix-build-client-route', { file: 'a.js', isEntry: true })).toBe('route')
		expect(moduleKind('app/root.tsx?__remix-build-client-route', { file: 'a.js', isEntry: true })).toBe('root')
	})

	it('recognises routes, the root and the client entry only', () => {
		expect(moduleKind('app/routes/_index.tsx', { file: 'a.js' })).toBe('route')
		expect(moduleKind('app/root.tsx', { file: 'a.js' })).toBe('root')
		expect(moduleKind('app/entry.client.tsx', { file: 'a.js', isEntry: true })).toBe('entry')
		expect(moduleKind('_react-B.js', { file: 'a.js' })).toBeUndefined()
		expect(moduleKind('app/styles/theme.css.ts', { file: 'a.css' })).toBeUndefined()
		expect(moduleKind('app/routes/$lang.auth.login.schema.ts', { file: 'a.js', isDynamicEntry: true })).toBeUndefined()
	})
})

describe('measureManifest', () => {
	const report = measureManifest(manifest, gzipSize)

	it('lists the routes sorted, then the root and the entry', () => {
		expect(report.modules.map((m) => [m.key, m.kind])).toEqual([
			['app/routes/$lang.contacts.tsx', 'route'],
			['app/routes/_index.tsx', 'route'],
			['app/root.tsx?__remix-build-client-route', 'root'],
			['node_modules/@remix-run/dev/dist/config/defaults/entry.client.tsx', 'entry'],
		])
	})

	it('sums the gzip sizes of what each route ships', () => {
		const index = report.modules.find((m) => m.key === 'app/routes/_index.tsx')
		expect(index?.js).toEqual({ files: 4, gzipBytes: 1500 + 40_000 + 3000 + 600 })
		expect(index?.css).toEqual({ files: 1, gzipBytes: 400 })
		const contacts = report.modules.find((m) => m.key === 'app/routes/$lang.contacts.tsx')
		expect(contacts?.js).toEqual({ files: 5, gzipBytes: 2500 + 3000 + 600 + 5000 + 40_000 })
		expect(contacts?.css).toEqual({ files: 3, gzipBytes: 200 + 400 + 700 })
	})

	it('counts shared chunks once in the entry + root total and in each first load', () => {
		expect(report.shared).toEqual({
			js: { files: 4, gzipBytes: 1000 + 40_000 + 5000 + 2000 },
			css: { files: 2, gzipBytes: 700 + 300 },
		})
		const index = report.modules.find((m) => m.key === 'app/routes/_index.tsx')
		expect(index?.firstLoad).toEqual({
			js: { files: 7, gzipBytes: 48_000 + 1500 + 3000 + 600 },
			css: { files: 3, gzipBytes: 1000 + 400 },
		})
	})

	it('formats a table with one row per module and the shared total', () => {
		const lines = formatReport(report).split('\n')
		expect(lines[0]).toMatch(/^route\s+JS gzip KB\s+CSS gzip KB/)
		expect(lines.some((line) => /^_index\.tsx\s+44\.04\s+0\.39\s/.test(line))).toBe(true)
		expect(lines.some((line) => /^shared: entry \+ root \(every page\)\s+46\.88\s+0\.98/.test(line))).toBe(true)
	})
})

describe('layouts and the login goal', () => {
	const route = (file: string, imports: string[] = []) => ({ file, isEntry: true, imports })
	const auth: Manifest = {
		'app/entry.client.tsx': route('assets/entry.js', ['_react.js']),
		'app/root.tsx?__remix-build-client-route': route('assets/root.js', ['_react.js']),
		'app/routes/$lang.auth.tsx?__remix-build-client-route': route('assets/auth.js', ['_card.js']),
		'app/routes/$lang.auth.login.tsx?__remix-build-client-route': route('assets/login.js', ['_form.js']),
		'app/routes/$lang.authors.tsx?__remix-build-client-route': route('assets/authors.js'),
		'app/routes/$lang.auth_.setup.tsx?__remix-build-client-route': route('assets/setup.js'),
		'_react.js': { file: 'assets/react.js' },
		'_card.js': { file: 'assets/card.js' },
		'_form.js': { file: 'assets/form.js' },
	}
	const authSizes: Record<string, number> = {
		'assets/entry.js': 10_000,
		'assets/root.js': 2_000,
		'assets/react.js': 60_000,
		'assets/auth.js': 1_000,
		'assets/card.js': 500,
		'assets/login.js': 1_500,
		'assets/form.js': 30_000,
		'assets/authors.js': 100,
		'assets/setup.js': 100,
	}
	const routeKeys = Object.keys(auth).filter((key) => key.startsWith('app/routes/'))

	it('finds the layouts a flat route sits in, segment by segment', () => {
		expect(layoutsOf('app/routes/$lang.auth.login.tsx?__remix-build-client-route', routeKeys)).toEqual(['app/routes/$lang.auth.tsx?__remix-build-client-route'])
		expect(layoutsOf('app/routes/$lang.auth_.setup.tsx?__remix-build-client-route', routeKeys)).toEqual([])
		expect(layoutsOf('app/routes/$lang.authors.tsx?__remix-build-client-route', routeKeys)).toEqual([])
	})

	it("counts the layout in the login page's first load and checks it against 100 KB", () => {
		const report = measureManifest(auth, (file) => authSizes[file] ?? Number.NaN)
		const login = report.modules.find((m) => sourcePath(m.key) === 'app/routes/$lang.auth.login.tsx')
		const expected = 10_000 + 2_000 + 60_000 + 1_000 + 500 + 1_500 + 30_000
		expect(login?.firstLoad.js).toEqual({ files: 7, gzipBytes: expected })
		expect(report.goals).toEqual([
			{
				key: 'app/routes/$lang.auth.login.tsx?__remix-build-client-route',
				label: 'login page first load JS',
				maxGzipBytes: 102_400,
				gzipBytes: expected,
				met: false,
			},
		])
		expect(formatReport(report).split('\n').at(-1)).toBe('login page first load JS: 102.54 KB gzip, goal 100.00 KB: not met')
		const smaller = measureManifest(auth, (file) => (file === 'assets/form.js' ? 20_000 : (authSizes[file] ?? Number.NaN)))
		expect(smaller.goals[0]?.met).toBe(true)
		expect(formatReport(smaller).split('\n').at(-1)).toMatch(/: met$/)
	})
})
