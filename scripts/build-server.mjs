// Bundles server.ts (with the API and realtime code it imports) into build/server.js for production,
// and realtime-server.ts (the Pusher-protocol server alone, `npm run start:realtime`) into build/realtime-server.js.
// Packages stay external: production installs them with `npm ci --omit=dev`.
import { build } from 'esbuild'

await build({
	entryPoints: ['server.ts', 'realtime-server.ts'],
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
