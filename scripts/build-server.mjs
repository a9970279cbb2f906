// Bundles server.ts (with the API and realtime code it imports) into build/server.js for production,
// and realtime-server.ts (the Pusher-protocol server alone, for several app processes) into build/realtime.js.
// Packages stay external: production installs them with `npm ci --omit=dev`.
import { build } from 'esbuild'

const entries = { server: 'server.ts', realtime: 'realtime-server.ts' }

await build({
	entryPoints: entries,
	outdir: 'build',
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	sourcemap: true,
	logLevel: 'warning',
	define: { 'process.env.NODE_ENV': '"production"' },
})
