import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The rooms and which way their imports go (README, "Folders"): checked on resolved files, so
// `#app/…`, `../app/…` and any other spelling are all caught.
const crm = ['./app', './api', './server', './common', './config', './locales']
const rooms = [
	{ target: ['./api', './realtime', './server', './common', './config'], from: './app', message: 'Only the web app imports app/.' },
	{ target: './realtime', from: crm, message: 'realtime/ is a Pusher-protocol server that knows nothing of the CRM.' },
	{ target: './common', from: ['./api', './server', './config', './realtime'], message: 'common/ is the neutral room: it imports no other room.' },
	{
		target: ['./api', './common', './config', './realtime'],
		from: './server',
		message: 'server/ composes the process: nothing below it imports it (the configuration is config/).',
	},
	{ target: './config', from: './api', message: 'config/ reads the settings every process shares; it imports no CRM code.' },
	{ target: './api', from: './api/index.ts', message: 'api/index.ts composes the routers; import the context from api/context.ts.' },
]
// The web app reaches the API through its one client module.
const appReachesApi = { target: './app', from: './api', message: 'app/ reaches api/ only through app/.server/api.ts.' }

export default tseslint.config(
	{
		ignores: ['build/**', 'node_modules/**', '.data/**', 'public/build/**', 'bench/results/**', 'test-results/**', 'playwright-report/**'],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx}'],
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		plugins: { 'react-hooks': reactHooks },
		rules: {
			...reactHooks.configs.recommended.rules,
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'no-console': ['error', { allow: ['warn', 'error'] }],
		},
	},
	{
		files: ['app/**/*.{ts,tsx}'],
		rules: {
			// Who may do what is decided in one place, which the API shares.
			'no-restricted-syntax': [
				'error',
				{
					selector:
						"BinaryExpression[operator=/^[!=]==?$/]:matches([left.name='role'], [left.property.name='role'], [right.name='role'], [right.property.name='role'])",
					message: 'Roles are compared in common/roles.ts only: use canManage, isOwner, mayChangeMember or mayResetTwoFactor.',
				},
			],
		},
	},
	{
		files: ['app/**/*.{ts,tsx}'],
		ignores: ['app/realtime/use-kept-action-data.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{
							name: '@remix-run/react',
							importNames: ['useActionData'],
							message: 'A realtime revalidation clears it: use useKeptActionData from #app/realtime/use-kept-action-data.ts.',
						},
					],
				},
			],
		},
	},
	{
		files: ['**/*.{ts,tsx}'],
		plugins: { 'import-x': importX },
		settings: {
			'import-x/resolver-next': [createNodeResolver()],
			'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
			'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
		},
		rules: {
			// Type-only imports do not count here (they vanish at run time); the zones above keep those directions.
			'import-x/no-cycle': ['error', { ignoreExternal: true }],
			'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...rooms, appReachesApi] }],
		},
	},
	{
		files: ['app/.server/api.ts'],
		rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: rooms }] },
	},
)
