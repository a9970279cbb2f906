import { defineConfig } from 'vitest/config'

// Two projects: fast unit tests beside the code, and API tests against a real PostgreSQL.
export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					include: ['{app,api,common,config,realtime,server,locales,scripts}/**/*.test.{ts,tsx}'],
					environment: 'node',
				},
			},
			{
				test: {
					name: 'api',
					include: ['tests/api/**/*.test.ts'],
					environment: 'node',
					globalSetup: ['tests/api/global-setup.ts'],
					setupFiles: ['tests/api/setup.ts'],
					testTimeout: 20_000,
					hookTimeout: 60_000,
					// One database for the run; files run one after another so fixtures stay predictable.
					pool: 'forks',
					poolOptions: { forks: { singleFork: true } },
				},
			},
		],
	},
})
