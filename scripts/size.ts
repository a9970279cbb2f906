/**
 * What each page ships to the browser: for every route module of the client build (plus the root
 * and the client entry), the gzip size of its JavaScript (the module and its static imports,
 * recursively, each file once) and of its CSS; its first load adds the entry, the root and the
 * layouts it sits in. The login page's first load is checked against its goal (issue 13).
 *
 *   npm run size            a table
 *   npm run size -- --json  the same as JSON
 *
 * Reads Vite's client manifest: Remix moves build/client/.vite/manifest.json to
 * build/.vite/client-manifest.json (out of the public folder); either is accepted. Builds the
 * client first when neither exists.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

/** One entry of Vite's build manifest (`build.manifest: true`). */
export type ManifestChunk = {
	file: string
	src?: string
	name?: string
	isEntry?: boolean
	isDynamicEntry?: boolean
	/** Keys of the chunks this one imports statically. */
	imports?: string[]
	/** Keys of the chunks it may import later: not counted, they are not shipped with the page. */
	dynamicImports?: string[]
	css?: string[]
	assets?: string[]
}

export type Manifest = Record<string, ManifestChunk>

export type Assets = { js: string[]; css: string[] }

export type Size = { files: number; gzipBytes: number }

export type ModuleKind = 'entry' | 'root' | 'route'

export type ModuleSize = {
	/** The manifest key, e.g. `app/routes/_index.tsx`. */
	key: string
	kind: ModuleKind
	js: Size
	css: Size
	/** With the client entry, the root and its layouts, which the page loads too: what a first visit downloads. */
	firstLoad: { js: Size; css: Size }
}

export type Goal = { key: string; label: string; maxGzipBytes: number; gzipBytes: number; met: boolean }

export type SizeReport = {
	modules: ModuleSize[]
	/** The client entry and the root together. */
	shared: { js: Size; css: Size }
	goals: Goal[]
}

/** First-load JavaScript budgets (issue 13: React Router 7's minimal app ships about 101 KB). */
export const goals = [{ route: 'app/routes/$lang.auth.login.tsx', label: 'login page first load JS', maxGzipBytes: 100 * 1024 }]

const entryPattern = /(^|\/)entry\.client\.[cm]?[jt]sx?$/
const rootPattern = /^app\/root\.[cm]?[jt]sx?$/

/** A module's source path: Remix adds a query to the keys of route modules (`?__remix-build-client-route`). */
export function sourcePath(key: string): string {
	return key.replace(/\?.*$/, '')
}

export function moduleKind(key: string, chunk: ManifestChunk): ModuleKind | undefined {
	const source = sourcePath(key)
	if (rootPattern.test(source)) return 'root'
	// A module beside the routes that a page imports later (a form's schema) is not a route.
	if (source.startsWith('app/routes/') && !(chunk.isDynamicEntry && !chunk.isEntry)) return 'route'
	if (chunk.isEntry && entryPattern.test(source)) return 'entry'
	return undefined
}

/**
 * The layouts a flat route sits in: the route modules whose dot-separated name is a prefix of its
 * own (`$lang.auth` for `$lang.auth.login`; `$lang.dashboard_.x` escapes `$lang.dashboard`).
 */
export function layoutsOf(routeKey: string, routeKeys: string[]): string[] {
	const segments = (key: string) =>
		sourcePath(key)
			.replace(/^app\/routes\//, '')
			.replace(/\.[cm]?[jt]sx?$/, '')
			.split('.')
	const own = segments(routeKey)
	return routeKeys.filter((key) => {
		const theirs = segments(key)
		return theirs.length < own.length && theirs.every((segment, index) => segment === own[index])
	})
}

/**
 * The files a chunk ships: its own file and, recursively, its static imports' files, plus every CSS
 * file along the way. Each file appears once, in first-visit order; import cycles are fine.
 */
export function collectAssets(manifest: Manifest, keys: string[]): Assets {
	const js = new Set<string>()
	const css = new Set<string>()
	const seen = new Set<string>()
	const visit = (key: string) => {
		if (seen.has(key)) return
		seen.add(key)
		const chunk = manifest[key]
		if (!chunk) throw new Error(`the manifest has no entry ${JSON.stringify(key)}`)
		if (/\.[cm]?js$/.test(chunk.file)) js.add(chunk.file)
		else if (chunk.file.endsWith('.css')) css.add(chunk.file)
		for (const file of chunk.css ?? []) css.add(file)
		for (const imported of chunk.imports ?? []) visit(imported)
	}
	for (const key of keys) visit(key)
	return { js: [...js], css: [...css] }
}

/** Sizes every route module, the root and the client entry; `gzipSize` measures one built file. */
export function measureManifest(manifest: Manifest, gzipSize: (file: string) => number): SizeReport {
	const total = (files: string[]): Size => ({ files: files.length, gzipBytes: files.reduce((sum, file) => sum + gzipSize(file), 0) })
	const modules = Object.entries(manifest)
		.flatMap(([key, chunk]) => {
			const kind = moduleKind(key, chunk)
			return kind ? [{ key, kind }] : []
		})
		.sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
	const sharedKeys = modules.filter((m) => m.kind !== 'route').map((m) => m.key)
	const routeKeys = modules.filter((m) => m.kind === 'route').map((m) => m.key)
	const shared = collectAssets(manifest, sharedKeys)
	const measured = modules.map(({ key, kind }) => {
		const own = collectAssets(manifest, [key])
		const layouts = kind === 'route' ? layoutsOf(key, routeKeys) : []
		const firstLoad = collectAssets(manifest, [...sharedKeys, ...layouts, key])
		return {
			key,
			kind,
			js: total(own.js),
			css: total(own.css),
			firstLoad: { js: total(firstLoad.js), css: total(firstLoad.css) },
		}
	})
	return {
		modules: measured,
		shared: { js: total(shared.js), css: total(shared.css) },
		goals: goals.flatMap(({ route, label, maxGzipBytes }) => {
			const measuredRoute = measured.find((m) => sourcePath(m.key) === route)
			if (!measuredRoute) return []
			const gzipBytes = measuredRoute.firstLoad.js.gzipBytes
			return [{ key: measuredRoute.key, label, maxGzipBytes, gzipBytes, met: gzipBytes <= maxGzipBytes }]
		}),
	}
}

const kindOrder: Record<ModuleKind, number> = { route: 0, root: 1, entry: 2 }

export function formatReport(report: SizeReport): string {
	const kb = (size: Size) => (size.gzipBytes / 1024).toFixed(2)
	const rows = [['route', 'JS gzip KB', 'CSS gzip KB', 'first load JS KB', 'first load CSS KB']]
	for (const m of report.modules) {
		const source = sourcePath(m.key)
		const name = m.kind === 'route' ? source.replace(/^app\/routes\//, '') : `${source} (${m.kind})`
		rows.push([name, kb(m.js), kb(m.css), kb(m.firstLoad.js), kb(m.firstLoad.css)])
	}
	rows.push(['shared: entry + root (every page)', kb(report.shared.js), kb(report.shared.css), kb(report.shared.js), kb(report.shared.css)])
	const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
	const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')
	const rule = widths.map((width) => '─'.repeat(width)).join('  ')
	const body = rows.slice(1).map(line)
	// The shared total sits under a rule of its own.
	body.splice(body.length - 1, 0, rule)
	const goalLines = report.goals.map(
		(goal) =>
			`${goal.label}: ${kb({ files: 0, gzipBytes: goal.gzipBytes })} KB gzip, goal ${kb({ files: 0, gzipBytes: goal.maxGzipBytes })} KB: ${goal.met ? 'met' : 'not met'}`,
	)
	return [line(rows[0] ?? []), rule, ...body, rule, ...goalLines].join('\n')
}

function main() {
	const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
	const clientDir = path.join(root, 'build', 'client')
	const candidates = [path.join(clientDir, '.vite', 'manifest.json'), path.join(root, 'build', '.vite', 'client-manifest.json')]
	let manifestFile = candidates.find((file) => fs.existsSync(file))
	if (!manifestFile) {
		process.stderr.write('no client manifest in build/: building the client (npx remix vite:build)\n')
		const build = spawnSync('npx', ['remix', 'vite:build'], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })
		manifestFile = candidates.find((file) => fs.existsSync(file))
		if (build.status !== 0 || !manifestFile) {
			process.stderr.write('the build failed or wrote no manifest (is build.manifest true in vite.config.ts?)\n')
			process.exit(1)
		}
	}
	process.stderr.write(`${path.relative(root, manifestFile)}\n`)
	const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest
	const sizes = new Map<string, number>()
	const gzipSize = (file: string) => {
		let size = sizes.get(file)
		if (size === undefined) {
			size = gzipSync(fs.readFileSync(path.join(clientDir, file)), { level: 9 }).length
			sizes.set(file, size)
		}
		return size
	}
	const report = measureManifest(manifest, gzipSize)
	if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, '\t')}\n`)
	else process.stdout.write(`${formatReport(report)}\n`)
}

// Run only as a script, not when the test imports it.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
