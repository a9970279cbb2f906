import { defineConfig } from 'vitest/config'

/** The API tests that start the built server, or servers of their own, and kill them. */
const ownServers = ['assignment-burst', 'campaigns-crash', 'faults-database', 'faults-shutdown', 'quick-start', 'quick-start-root'].map(
	(name) => `tests/api/${name}.test.ts`,
)

/**
 * Run in that second process too, though they start no server: CPU-bound files that balance the two
 * processes (the API stage waited on the first one, 370 s against 280 s).
 */
const balance = ['contacts-csv'].map((name) => `tests/api/${name}.test.ts`)

/** An API project: a fresh database for the run, and its files one after another so fixtures stay predictable. */
const apiProject = (name: string, include: string[], exclude: string[] = []) => ({
	test: {
		name,
		include,
		exclude,
		environment: 'node' as const,
		globalSetup: ['tests/api/global-setup.ts'],
		setupFiles: ['tests/api/setup.ts'],
		testTimeout: 20_000,
		hookTimeout: 60_000,
		pool: 'forks' as const,
		poolOptions: { forks: { singleFork: true } },
	},
})

// Fast unit tests beside the code, and API tests against a real PostgreSQL.
export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					// tests/fakes: the fakes' own tests (a fake that accepts what the real service refuses hides bugs).
					include: ['{app,api,common,config,realtime,server,locales,scripts}/**/*.test.{ts,tsx}', 'tests/fakes/**/*.test.ts'],
					environment: 'node',
				},
			},
			apiProject('api', ['tests/api/**/*.test.ts'], [...ownServers, ...balance]),
			// Each starts servers (and PostgreSQL) of its own and mostly waits for them: `npm test` runs
			// them in a process of their own, beside the others (scripts/test.ts), with the balancing files.
			apiProject('api-servers', [...ownServers, ...balance]),
		],
	},
})
