import { vitePlugin as remix } from '@remix-run/dev'
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin'
import { defineConfig } from 'vite'

declare module '@remix-run/node' {
	interface Future {
		v3_singleFetch: true
	}
}

export default defineConfig({
	define: { __BUILD_VERSION__: JSON.stringify(process.env.BUILD_VERSION ?? Date.now().toString(36)) },
	build: { target: 'es2022', cssMinify: true, manifest: true },
	server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
	plugins: [
		vanillaExtractPlugin({ identifiers: process.env.NODE_ENV === 'production' ? 'short' : 'debug' }),
		remix({
			future: {
				v3_fetcherPersist: true,
				v3_relativeSplatPath: true,
				v3_throwAbortReason: true,
				v3_singleFetch: true,
				v3_lazyRouteDiscovery: true,
				v3_routeConfig: true,
			},
		}),
	],
})
