import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import webpush from 'web-push'
import { z } from 'zod'
import { unusableDataDir } from './startup-error.ts'

const optionalString = z
	.string()
	.trim()
	.transform((value) => (value === '' ? undefined : value))
	.optional()

const optionalUrl = (what: string) => optionalString.refine((value) => value === undefined || URL.canParse(value), `${what} must be an absolute URL`)

const port = z.coerce.number({ invalid_type_error: 'must be a number' }).int().min(0).max(65535)

const boolean = z
	.enum(['true', 'false', '1', '0', ''])
	.optional()
	.transform((value) => (value === undefined || value === '' ? undefined : value === 'true' || value === '1'))

// Whose X-Forwarded-For is believed (Express's `trust proxy`): loopback, or e.g. `uniquelocal` behind a proxy container.
export const trustProxy = z
	.string()
	.trim()
	.default('loopback')
	.refine(
		(value) => value.split(',').every((part) => /^(loopback|linklocal|uniquelocal|[\d.]+(\/\d+)?|[\da-f:]+(\/\d+)?)$/i.test(part.trim())),
		'TRUST_PROXY must be loopback, linklocal, uniquelocal or addresses/CIDR ranges, comma-separated',
	)

const limit = (name: string, fallback: number, max: number) =>
	z.coerce
		.number({ invalid_type_error: `${name} must be a number` })
		.int(`${name} must be a whole number`)
		.min(1, `${name} must be at least 1`)
		.max(max, `${name} must be at most ${max}`)
		.default(fallback)

/**
 * The embedded realtime server's limits (also the standalone one's, `npm run start:realtime`): one
 * unauthenticated socket could otherwise hold any number of channels and one address any number of sockets.
 */
export const realtimeLimits = {
	REALTIME_MAX_CONNECTIONS: limit('REALTIME_MAX_CONNECTIONS', 10_000, 1_000_000),
	// An office behind one NAT shares an address: each open page of each agent is one connection.
	REALTIME_MAX_CONNECTIONS_PER_ADDRESS: limit('REALTIME_MAX_CONNECTIONS_PER_ADDRESS', 50, 1_000_000),
	// A page holds about five (workspace, presence, conversation, visitor, own user).
	REALTIME_MAX_CHANNELS_PER_CONNECTION: limit('REALTIME_MAX_CHANNELS_PER_CONNECTION', 100, 10_000),
	REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND: limit('REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND', 10, 10_000),
}

const envSchema = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
	HOST: z.string().trim().min(1).default('0.0.0.0'),
	TRUST_PROXY: trustProxy,
	PORT: port.default(3000),
	PUBLIC_URL: optionalUrl('PUBLIC_URL'),
	DATA_DIR: z.string().trim().min(1).default('.data'),
	DATABASE_URL: optionalString.refine(
		(value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
		'DATABASE_URL must start with postgres:// or postgresql://',
	),
	EMBEDDED_PG_PORT: z.union([z.literal('').transform(() => undefined), port]).optional(),
	SESSION_SECRET: optionalString.refine((value) => value === undefined || value.length >= 32, 'SESSION_SECRET must be at least 32 characters'),
	API_BASE_URL: optionalUrl('API_BASE_URL'),
	// Channel credentials at rest (AES-256-GCM); generated into DATA_DIR like SESSION_SECRET when unset.
	ENCRYPTION_KEY: optionalString.refine((value) => value === undefined || value.length >= 32, 'ENCRYPTION_KEY must be at least 32 characters'),
	// The providers' APIs, changeable for a proxy or a test's local fake.
	WHATSAPP_API_URL: z.string().trim().url().default('https://graph.facebook.com'),
	WHATSAPP_API_VERSION: z
		.string()
		.trim()
		.regex(/^v\d+\.\d+$/, 'WHATSAPP_API_VERSION must look like v21.0')
		.default('v21.0'),
	META_GRAPH_URL: z.string().trim().url().default('https://graph.facebook.com'),
	META_GRAPH_VERSION: z
		.string()
		.trim()
		.regex(/^v\d+\.\d+$/, 'META_GRAPH_VERSION must look like v21.0')
		.default('v21.0'),
	TELEGRAM_API_URL: z.string().trim().url().default('https://api.telegram.org'),
	// Attachments, in and out: a larger file is refused (an agent's) or kept as a note (a customer's).
	UPLOAD_MAX_BYTES: z.coerce
		.number({ invalid_type_error: 'UPLOAD_MAX_BYTES must be a number of bytes' })
		.int('UPLOAD_MAX_BYTES must be a whole number of bytes')
		.min(1024, 'UPLOAD_MAX_BYTES must be at least 1024')
		.max(2 ** 31, 'UPLOAD_MAX_BYTES must be at most 2147483648 (2 GiB)')
		.default(16 * 1024 * 1024),
	// How long the audit log keeps its lines, in days; the nightly prune deletes older ones.
	AUDIT_LOG_DAYS: z.coerce
		.number({ invalid_type_error: 'AUDIT_LOG_DAYS must be a number of days' })
		.int('AUDIT_LOG_DAYS must be a whole number of days')
		.min(1, 'AUDIT_LOG_DAYS must be at least 1')
		.max(36_500, 'AUDIT_LOG_DAYS must be at most 36500 (a hundred years)')
		.default(365),
	// How long after a member's last connection closes their availability turns offline by itself, in seconds.
	PRESENCE_OFFLINE_AFTER: z.coerce
		.number({ invalid_type_error: 'PRESENCE_OFFLINE_AFTER must be a number of seconds' })
		.int('PRESENCE_OFFLINE_AFTER must be a whole number of seconds')
		.min(0, 'PRESENCE_OFFLINE_AFTER must be at least 0')
		.max(86_400, 'PRESENCE_OFFLINE_AFTER must be at most 86400 (a day)')
		.default(600),
	// Whether presence is reconciled once a minute against the realtime server's lists (on unless false): off only
	// where presence is told by webhooks of connections the server never had (the burst test, the bench).
	PRESENCE_RECONCILE: boolean,
	// The words a customer answers, alone, to stop campaigns (comma-separated).
	OPT_OUT_WORDS: z
		.string()
		.default('STOP,ARRÊT,إلغاء')
		.transform((value) =>
			value
				.split(',')
				.map((word) => word.trim())
				.filter(Boolean),
		),
	PUSHER_APP_ID: optionalString,
	PUSHER_KEY: optionalString,
	PUSHER_SECRET: optionalString,
	PUSHER_CLUSTER: optionalString,
	PUSHER_HOST: optionalString.refine(
		(value) => value === undefined || !/[/\s]/.test(value),
		'PUSHER_HOST must be a host name without scheme or path, e.g. soketi.example.com',
	),
	PUSHER_PORT: z.union([z.literal('').transform(() => undefined), port]).optional(),
	PUSHER_FORCE_TLS: boolean,
	...realtimeLimits,
	// Where browsers reach the Pusher-protocol server when it is not where the app publishes (Soketi behind the app's proxy).
	PUSHER_PUBLIC_URL: optionalUrl('PUSHER_PUBLIC_URL').refine(
		(value) => value === undefined || /^(https?|wss?):\/\/[^/]+\/?$/.test(value),
		'PUSHER_PUBLIC_URL must be a scheme and host only, e.g. https://crm.example.com',
	),
	// Attachments on S3-compatible object storage (AWS S3, MinIO…) instead of DATA_DIR/uploads, when S3_BUCKET is set.
	S3_BUCKET: optionalString,
	S3_REGION: optionalString,
	S3_ENDPOINT: optionalUrl('S3_ENDPOINT'),
	S3_ACCESS_KEY_ID: optionalString,
	S3_SECRET_ACCESS_KEY: optionalString,
	// Path-style URLs (http://host/bucket/key), which MinIO needs; on by default when S3_ENDPOINT is set.
	S3_FORCE_PATH_STYLE: boolean,
	SMTP_URL: optionalString.refine((value) => value === undefined || /^smtps?:\/\//.test(value), 'SMTP_URL must start with smtp:// or smtps://'),
	MAIL_FROM: z.string().trim().min(3).default('CRM <no-reply@localhost>'),
	HOME_REDIRECT: optionalString.refine((value) => value === undefined || value.startsWith('/'), 'HOME_REDIRECT must be a path starting with /'),
	ALLOWED_REDIRECT_HOSTS: z
		.string()
		.optional()
		.transform((value) =>
			(value ?? '')
				.split(',')
				.map((host) => host.trim().toLowerCase())
				.filter(Boolean),
		),
	// Web Push (RFC 8292): the application server's key pair, generated into DATA_DIR when unset, and its contact.
	VAPID_PUBLIC_KEY: optionalString.refine(
		(value) => value === undefined || /^[\w-]{86,88}={0,2}$/.test(value),
		'VAPID_PUBLIC_KEY must be a base64url P-256 public key (65 bytes), e.g. from `npx web-push generate-vapid-keys`',
	),
	VAPID_PRIVATE_KEY: optionalString.refine(
		(value) => value === undefined || /^[\w-]{43}=?$/.test(value),
		'VAPID_PRIVATE_KEY must be a base64url P-256 private key (32 bytes), e.g. from `npx web-push generate-vapid-keys`',
	),
	VAPID_SUBJECT: optionalString.refine(
		(value) => value === undefined || /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(value),
		'VAPID_SUBJECT must be a mailto: or https: URL, e.g. mailto:support@example.com',
	),
	// Outgoing webhooks and push endpoints may reach loopback and private addresses (tests, a LAN-only install).
	WEBHOOK_ALLOW_PRIVATE: boolean.transform((value) => value ?? false),
	// Certificate authorities (PEM) that push endpoints and outgoing webhooks are trusted by besides the system's: a private service, a test's fake.
	OUTBOUND_CA_FILE: optionalString,
	LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
	// Seed the demo workspace at start when the database is empty (also `npm start -- --demo`).
	DEMO: boolean,
	// Set by the container image: there a missing secret must stop the container, never be generated.
	REQUIRE_SECRETS: boolean,
})

export type Env = z.infer<typeof envSchema>

export type Config = Omit<Env, 'SESSION_SECRET' | 'ENCRYPTION_KEY' | 'PUBLIC_URL' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT'> & {
	SESSION_SECRET: string
	ENCRYPTION_KEY: string
	PUBLIC_URL: string
	VAPID_PUBLIC_KEY: string
	VAPID_PRIVATE_KEY: string
	VAPID_SUBJECT: string
	/** The PEM text of OUTBOUND_CA_FILE, when set. */
	outboundCa: string | undefined
	/** Absolute path of DATA_DIR. */
	dataDir: string
	isProduction: boolean
	/** Secrets that were not configured and come from DATA_DIR instead (worth a warning). */
	generatedSecrets: string[]
}

/** Raised when the environment is invalid: one line per problem, ready to print. */
export class ConfigError extends Error {
	constructor(readonly problems: string[]) {
		super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
		this.name = 'ConfigError'
	}
}

export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
	const parsed = envSchema.safeParse(env)
	if (!parsed.success) {
		throw new ConfigError(
			parsed.error.issues.map((issue) => {
				const name = issue.path.join('.')
				return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`
			}),
		)
	}
	const values = parsed.data
	const isProduction = values.NODE_ENV === 'production'
	const problems: string[] = []
	if (values.REQUIRE_SECRETS && !values.SESSION_SECRET) {
		problems.push('SESSION_SECRET is required (REQUIRE_SECRETS is set): 32 or more random characters, e.g. from `openssl rand -hex 32`')
	}
	if (values.REQUIRE_SECRETS && !values.ENCRYPTION_KEY) {
		problems.push('ENCRYPTION_KEY is required (REQUIRE_SECRETS is set): 32 or more random characters, e.g. from `openssl rand -hex 32`')
	}
	const pusherCredentials = [values.PUSHER_APP_ID, values.PUSHER_KEY, values.PUSHER_SECRET]
	if (values.PUSHER_HOST && pusherCredentials.some((value) => !value)) {
		problems.push('PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET are required when PUSHER_HOST is set')
	}
	const s3 = { S3_REGION: values.S3_REGION, S3_ACCESS_KEY_ID: values.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: values.S3_SECRET_ACCESS_KEY }
	if (values.S3_BUCKET && Object.values(s3).some((value) => !value)) {
		problems.push('S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when S3_BUCKET is set')
	}
	if (Boolean(values.VAPID_PUBLIC_KEY) !== Boolean(values.VAPID_PRIVATE_KEY))
		problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither')
	if (!values.S3_BUCKET && (values.S3_ENDPOINT || Object.values(s3).some(Boolean))) problems.push('S3_BUCKET is required when another S3_* variable is set')
	let outboundCa: string | undefined
	if (values.OUTBOUND_CA_FILE) {
		try {
			outboundCa = fs.readFileSync(path.resolve(cwd, values.OUTBOUND_CA_FILE), 'utf8')
			if (!outboundCa.includes('-----BEGIN CERTIFICATE-----')) problems.push('OUTBOUND_CA_FILE must be a PEM file of certificates')
		} catch {
			problems.push(`OUTBOUND_CA_FILE cannot be read: ${values.OUTBOUND_CA_FILE}`)
		}
	}
	if (problems.length) throw new ConfigError(problems)

	const dataDir = path.resolve(cwd, values.DATA_DIR)
	const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '')
	// One file for the pair: a public key must never meet another process's private key.
	const vapid =
		values.VAPID_PUBLIC_KEY && values.VAPID_PRIVATE_KEY
			? { publicKey: values.VAPID_PUBLIC_KEY, privateKey: values.VAPID_PRIVATE_KEY }
			: vapidKeysOf(readOrCreateSecret(dataDir, vapidKeysFile, () => JSON.stringify(webpush.generateVAPIDKeys())))
	return {
		...values,
		dataDir,
		isProduction,
		PUBLIC_URL: publicUrl,
		SESSION_SECRET: values.SESSION_SECRET ?? readOrCreateSecret(dataDir, 'session-secret'),
		ENCRYPTION_KEY: values.ENCRYPTION_KEY ?? readOrCreateSecret(dataDir, 'encryption-key'),
		VAPID_PUBLIC_KEY: vapid.publicKey,
		VAPID_PRIVATE_KEY: vapid.privateKey,
		VAPID_SUBJECT: values.VAPID_SUBJECT ?? vapidSubject(values.MAIL_FROM, publicUrl),
		outboundCa,
		generatedSecrets: [
			values.SESSION_SECRET ? [] : ['SESSION_SECRET'],
			values.ENCRYPTION_KEY ? [] : ['ENCRYPTION_KEY'],
			values.VAPID_PRIVATE_KEY ? [] : [vapidKeysName],
		].flat(),
	}
}

const vapidKeysFile = 'vapid-keys'
const vapidKeysName = 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY'

function vapidKeysOf(text: string): { publicKey: string; privateKey: string } {
	const keys = JSON.parse(text) as { publicKey?: unknown; privateKey?: unknown }
	if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string')
		throw new ConfigError([`${vapidKeysFile} in DATA_DIR is not a VAPID key pair: remove it to generate another`])
	return { publicKey: keys.publicKey, privateKey: keys.privateKey }
}

/**
 * The contact push services may write to (RFC 8292 §2.1): the sender's mail address, unless it is a
 * local one no service would accept, then the site's https address.
 */
export function vapidSubject(mailFrom: string, publicUrl: string): string {
	const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim()
	const local = /@(localhost|[^.]+)$/i.test(address)
	return local && publicUrl.startsWith('https://') ? publicUrl : `mailto:${address}`
}

/** Said once at start for each secret that comes from DATA_DIR rather than the environment. */
export function generatedSecretWarning(name: string, dataDir: string): string {
	if (name === vapidKeysName) {
		return `${name} are not set: using the pair generated in ${path.join(dataDir, vapidKeysFile)}. Several app processes must share one pair: set both in their environment.`
	}
	return `${name} is not set: using the one generated in ${path.join(dataDir, name.toLowerCase().replaceAll('_', '-'))}. Several app processes must share one ${name}: set it in their environment.`
}

/** A secret kept in DATA_DIR so that sessions survive restarts when none is configured (`create` makes a new one). */
export function readOrCreateSecret(dataDir: string, name: string, create = () => crypto.randomBytes(32).toString('hex')): string {
	const file = path.join(dataDir, name)
	try {
		return fs.readFileSync(file, 'utf8').trim()
	} catch {
		const secret = create()
		try {
			fs.mkdirSync(dataDir, { recursive: true })
			fs.writeFileSync(file, secret, { mode: 0o600 })
		} catch (error) {
			throw unusableDataDir(dataDir, error)
		}
		return secret
	}
}
