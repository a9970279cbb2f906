import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import webpush from 'web-push'
import { generatedSecretWarning, parseConfig, vapidSubject } from './config.ts'
import { problemsOf, tmpDataDir } from './config-test-support.ts'

const vapidEnv = () => {
	const keys = webpush.generateVAPIDKeys()
	return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }
}

describe('configuration', () => {
	test('defaults give a working development setup and a generated, persisted secret', () => {
		const dir = tmpDataDir()
		const config = parseConfig({}, dir)
		expect(config.PORT).toBe(3000)
		expect(config.PUBLIC_URL).toBe('http://localhost:3000')
		expect(config.dataDir).toBe(path.join(dir, '.data'))
		expect(config.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/)
		expect(parseConfig({}, dir).SESSION_SECRET).toBe(config.SESSION_SECRET)
		expect(config.ALLOWED_REDIRECT_HOSTS).toEqual([])
	})

	test('one line per problem', () => {
		const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'not a url', SMTP_URL: 'http://x' })
		expect(problems).toHaveLength(4)
		expect(problems).toContain('DATABASE_URL must start with postgres:// or postgresql://')
		expect(problems).toContain('PUBLIC_URL must be an absolute URL')
		expect(problems.find((line) => line.startsWith('PORT'))).toBeDefined()
	})

	test('production without a session secret generates one into DATA_DIR, kept across restarts, and says so', () => {
		const dir = tmpDataDir()
		const config = parseConfig({ NODE_ENV: 'production' }, dir)
		expect(config.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/)
		expect(config.generatedSecrets).toEqual(['SESSION_SECRET', 'ENCRYPTION_KEY', 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY'])
		expect(config.ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/)
		expect(config.ENCRYPTION_KEY).not.toBe(config.SESSION_SECRET)
		expect(fs.readFileSync(path.join(dir, '.data', 'session-secret'), 'utf8')).toBe(config.SESSION_SECRET)
		expect(parseConfig({ NODE_ENV: 'production' }, dir).SESSION_SECRET).toBe(config.SESSION_SECRET)
		expect(generatedSecretWarning('SESSION_SECRET', config.dataDir)).toContain('Several app processes must share one SESSION_SECRET')
		const configured = parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }, dir)
		expect(configured.SESSION_SECRET).toBe('x'.repeat(32))
		expect(configured.generatedSecrets).toEqual(['ENCRYPTION_KEY', 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY'])
		expect(
			parseConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32), ...vapidEnv() }, dir).generatedSecrets,
		).toEqual([])
	})

	test('a short secret is refused, and the container image (REQUIRE_SECRETS) requires one', () => {
		expect(problemsOf({ NODE_ENV: 'production', SESSION_SECRET: 'short' })).toEqual(['SESSION_SECRET must be at least 32 characters'])
		expect(problemsOf({ NODE_ENV: 'production', ENCRYPTION_KEY: 'short' })).toEqual(['ENCRYPTION_KEY must be at least 32 characters'])
		const [session, encryption, ...others] = problemsOf({ NODE_ENV: 'production', REQUIRE_SECRETS: 'true' })
		expect(others).toEqual([])
		expect(session).toMatch(/^SESSION_SECRET is required \(REQUIRE_SECRETS is set\)/)
		expect(encryption).toMatch(/^ENCRYPTION_KEY is required \(REQUIRE_SECRETS is set\)/)
		expect(problemsOf({ REQUIRE_SECRETS: 'true', SESSION_SECRET: 'y'.repeat(40), ENCRYPTION_KEY: 'z'.repeat(40) })).toEqual([])
	})

	test('VAPID keys: generated once into DATA_DIR as one pair that every process on it shares, or configured both together', () => {
		const dir = tmpDataDir()
		const config = parseConfig({}, dir)
		expect(Buffer.from(config.VAPID_PUBLIC_KEY, 'base64url')).toHaveLength(65)
		expect(Buffer.from(config.VAPID_PRIVATE_KEY, 'base64url')).toHaveLength(32)
		const again = parseConfig({}, dir)
		expect([again.VAPID_PUBLIC_KEY, again.VAPID_PRIVATE_KEY]).toEqual([config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY])
		expect(JSON.parse(fs.readFileSync(path.join(dir, '.data', 'vapid-keys'), 'utf8'))).toEqual({
			publicKey: config.VAPID_PUBLIC_KEY,
			privateKey: config.VAPID_PRIVATE_KEY,
		})
		expect(generatedSecretWarning('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY', config.dataDir)).toContain(path.join(config.dataDir, 'vapid-keys'))
		// The pair signs what a push service checks.
		expect(() =>
			webpush.getVapidHeaders('https://push.example', config.VAPID_SUBJECT, config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY, 'aes128gcm'),
		).not.toThrow()

		const env = vapidEnv()
		const configured = parseConfig(env, tmpDataDir())
		expect([configured.VAPID_PUBLIC_KEY, configured.VAPID_PRIVATE_KEY]).toEqual([env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY])
		expect(configured.generatedSecrets).not.toContain('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY')
		expect(problemsOf({ VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY })).toEqual(['VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither'])
		expect(problemsOf({ ...env, VAPID_PRIVATE_KEY: 'short' })).toEqual([expect.stringMatching(/^VAPID_PRIVATE_KEY must be a base64url P-256 private key/)])
		expect(problemsOf({ ...env, VAPID_PUBLIC_KEY: 'not a key' })).toEqual([expect.stringMatching(/^VAPID_PUBLIC_KEY must be a base64url P-256 public key/)])
	})

	test('VAPID_SUBJECT: mailto: the sender, the https site when the sender is local, or as configured', () => {
		expect(parseConfig({ MAIL_FROM: 'Acme Support <help@acme.example>' }, tmpDataDir()).VAPID_SUBJECT).toBe('mailto:help@acme.example')
		expect(vapidSubject('CRM <no-reply@localhost>', 'https://crm.acme.example')).toBe('https://crm.acme.example')
		expect(vapidSubject('CRM <no-reply@localhost>', 'http://localhost:3000')).toBe('mailto:no-reply@localhost')
		expect(vapidSubject('support@acme.example', 'https://crm.acme.example')).toBe('mailto:support@acme.example')
		expect(parseConfig({ VAPID_SUBJECT: 'https://acme.example/contact' }, tmpDataDir()).VAPID_SUBJECT).toBe('https://acme.example/contact')
		expect(problemsOf({ VAPID_SUBJECT: 'support' })).toEqual(['VAPID_SUBJECT must be a mailto: or https: URL, e.g. mailto:support@example.com'])
	})

	test('WEBHOOK_ALLOW_PRIVATE: off unless true', () => {
		expect(parseConfig({}, tmpDataDir()).WEBHOOK_ALLOW_PRIVATE).toBe(false)
		expect(parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }, tmpDataDir()).WEBHOOK_ALLOW_PRIVATE).toBe(true)
		expect(problemsOf({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toHaveLength(1)
	})

	test('OUTBOUND_CA_FILE: a readable PEM file, kept as text', () => {
		const dir = tmpDataDir()
		const pem = path.join(dir, 'ca.pem')
		fs.writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')
		expect(parseConfig({ OUTBOUND_CA_FILE: pem }, dir).outboundCa).toContain('BEGIN CERTIFICATE')
		expect(parseConfig({}, dir).outboundCa).toBeUndefined()
		expect(problemsOf({ OUTBOUND_CA_FILE: path.join(dir, 'missing.pem') })).toEqual([`OUTBOUND_CA_FILE cannot be read: ${path.join(dir, 'missing.pem')}`])
		fs.writeFileSync(pem, 'not a certificate')
		expect(problemsOf({ OUTBOUND_CA_FILE: pem })).toEqual(['OUTBOUND_CA_FILE must be a PEM file of certificates'])
	})

	test('an external realtime host needs its credentials', () => {
		expect(problemsOf({ PUSHER_HOST: 'soketi.example' })).toEqual(['PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET are required when PUSHER_HOST is set'])
	})

	test('limits attachments to 16 MiB unless UPLOAD_MAX_BYTES says otherwise, in whole bytes', () => {
		expect(parseConfig({}, tmpDataDir()).UPLOAD_MAX_BYTES).toBe(16 * 1024 * 1024)
		expect(parseConfig({ UPLOAD_MAX_BYTES: '5000000' }, tmpDataDir()).UPLOAD_MAX_BYTES).toBe(5_000_000)
		expect(problemsOf({ UPLOAD_MAX_BYTES: '16MB' })).toEqual(['UPLOAD_MAX_BYTES must be a number of bytes'])
		expect(problemsOf({ UPLOAD_MAX_BYTES: '10' })).toEqual(['UPLOAD_MAX_BYTES must be at least 1024'])
	})

	test('S3_*: the bucket with its region and keys, all or none', () => {
		const s3 = { S3_BUCKET: 'crm', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }
		expect(problemsOf({ ...s3, S3_ENDPOINT: 'http://minio:9000' })).toEqual([])
		expect(problemsOf({ S3_BUCKET: 'crm' })).toEqual(['S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when S3_BUCKET is set'])
		expect(problemsOf({ S3_ENDPOINT: 'http://minio:9000' })).toEqual(['S3_BUCKET is required when another S3_* variable is set'])
		expect(problemsOf({ ...s3, S3_ENDPOINT: 'minio' })).toEqual(['S3_ENDPOINT must be an absolute URL'])
	})

	test('TRUST_PROXY: loopback by default, a proxy container’s network when told', () => {
		expect(parseConfig({}, tmpDataDir()).TRUST_PROXY).toBe('loopback')
		expect(problemsOf({ TRUST_PROXY: 'loopback, uniquelocal, 10.0.0.0/8' })).toEqual([])
		expect(problemsOf({ TRUST_PROXY: 'everyone' })).toEqual(['TRUST_PROXY must be loopback, linklocal, uniquelocal or addresses/CIDR ranges, comma-separated'])
	})

	test('lists allowed redirect hosts', () => {
		expect(parseConfig({ ALLOWED_REDIRECT_HOSTS: ' Shop.example , help.example,' }, tmpDataDir()).ALLOWED_REDIRECT_HOSTS).toEqual([
			'shop.example',
			'help.example',
		])
	})

	// A process of its own, which compiles the server's imports first: seconds, more on a loaded machine.
	test('the server refuses to start on a bad value, printing each problem', { timeout: 60_000 }, () => {
		const result = spawnSync(process.execPath, ['--import', 'tsx', 'server.ts'], {
			env: { PATH: process.env.PATH, NODE_ENV: 'development', PORT: '-1', DATABASE_URL: 'nope', DATA_DIR: tmpDataDir() },
			encoding: 'utf8',
			timeout: 30_000,
		})
		expect(result.status).toBe(1)
		expect(result.stderr).toContain('Invalid configuration:')
		expect(result.stderr).toContain('DATABASE_URL must start with postgres:// or postgresql://')
		expect(result.stderr).toMatch(/PORT: /)
	})
})
