import crypto from 'node:crypto'
import http from 'node:http'
import { type AddressInfo } from 'node:net'

/**
 * A local S3 (https://docs.aws.amazon.com/AmazonS3/latest/API/) for tests, path-style as MinIO is
 * addressed: `PUT`, `GET`, `HEAD` and `DELETE /{bucket}/{key}` (PutObject, GetObject, HeadObject,
 * DeleteObject). Requests must be signed with Signature Version 4 by the fake's access key (the
 * `Authorization` header's credential scope is checked, not the HMAC itself), and a payload hash in
 * `x-amz-content-sha256` must match the body; `aws-chunked` bodies (streaming uploads) are decoded.
 * Errors are S3's XML `<Error><Code>…</Code>…</Error>`.
 */
export type S3Fake = {
	url: string
	bucket: string
	region: string
	accessKeyId: string
	secretAccessKey: string
	/** The objects kept, by key. */
	objects: Map<string, { bytes: Buffer; contentType: string; etag: string; lastModified: Date }>
	/** Every request, as `METHOD /path`. */
	requests: string[]
	close: () => Promise<void>
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`)

function errorAnswer(res: http.ServerResponse, status: number, code: string, message: string, resource: string, head: boolean) {
	const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${crypto.randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`
	res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': String(Buffer.byteLength(body)), 'x-amz-request-id': 'FAKE' })
	res.end(head ? undefined : body)
}

/** An `aws-chunked` body's data: `{hex size}[;chunk-signature=…]\r\n{bytes}\r\n`… up to a zero-size chunk and its trailers. */
export function decodeAwsChunked(raw: Buffer): Buffer {
	const parts: Buffer[] = []
	let at = 0
	for (;;) {
		const lineEnd = raw.indexOf('\r\n', at)
		if (lineEnd < 0) throw new Error('aws-chunked: no chunk header')
		const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16)
		if (!Number.isFinite(size)) throw new Error('aws-chunked: bad chunk size')
		if (size === 0) return Buffer.concat(parts)
		parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size))
		at = lineEnd + 2 + size + 2
	}
}

export async function startS3Fake(options: { port?: number; bucket?: string; region?: string } = {}): Promise<S3Fake> {
	const bucket = options.bucket ?? 'crm-test'
	const region = options.region ?? 'us-east-1'
	const accessKeyId = 'FAKEACCESSKEY' + crypto.randomBytes(4).toString('hex').toUpperCase()
	const secretAccessKey = crypto.randomBytes(20).toString('base64')
	const objects: S3Fake['objects'] = new Map()
	const requests: string[] = []

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.on('end', () => {
			const method = req.method ?? 'GET'
			const url = new URL(req.url ?? '/', 'http://fake')
			const head = method === 'HEAD'
			requests.push(`${method} ${url.pathname}`)
			const authorization = req.headers.authorization ?? ''
			const scope = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=[0-9a-f]{64}$/.exec(
				authorization,
			)
			if (!scope || !req.headers['x-amz-date']) return errorAnswer(res, 403, 'AccessDenied', 'Access Denied', url.pathname, head)
			if (scope[1] !== accessKeyId)
				return errorAnswer(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', url.pathname, head)
			if (scope[3] !== region)
				return errorAnswer(res, 400, 'AuthorizationHeaderMalformed', `the region '${scope[3]}' is wrong; expecting '${region}'`, url.pathname, head)
			if (!scope[4]!.split(';').includes('host')) return errorAnswer(res, 403, 'AccessDenied', 'The host header must be signed', url.pathname, head)

			const [, bucketName = '', ...keyParts] = url.pathname.split('/')
			const key = decodeURIComponent(keyParts.join('/'))
			if (bucketName !== bucket) return errorAnswer(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', url.pathname, head)
			if (!key) return errorAnswer(res, 501, 'NotImplemented', 'Only object operations are implemented', url.pathname, head)

			if (method === 'PUT') {
				const raw = Buffer.concat(chunks)
				const chunked =
					String(req.headers['content-encoding'] ?? '').includes('aws-chunked') || String(req.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-')
				const bytes = chunked ? decodeAwsChunked(raw) : raw
				const declared = String(req.headers['x-amz-content-sha256'] ?? '')
				if (/^[0-9a-f]{64}$/.test(declared) && crypto.createHash('sha256').update(bytes).digest('hex') !== declared) {
					return errorAnswer(
						res,
						400,
						'XAmzContentSHA256Mismatch',
						'The provided x-amz-content-sha256 header does not match what was computed.',
						url.pathname,
						false,
					)
				}
				const etag = `"${crypto.createHash('md5').update(bytes).digest('hex')}"`
				objects.set(key, { bytes, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), etag, lastModified: new Date() })
				res.writeHead(200, { ETag: etag, 'Content-Length': '0' })
				return res.end()
			}
			if (method === 'GET' || head) {
				const object = objects.get(key)
				if (!object) return errorAnswer(res, 404, 'NoSuchKey', 'The specified key does not exist.', url.pathname, head)
				res.writeHead(200, {
					'Content-Type': object.contentType,
					'Content-Length': String(object.bytes.length),
					ETag: object.etag,
					'Last-Modified': object.lastModified.toUTCString(),
					'Accept-Ranges': 'bytes',
				})
				return res.end(head ? undefined : object.bytes)
			}
			if (method === 'DELETE') {
				objects.delete(key)
				res.writeHead(204)
				return res.end()
			}
			return errorAnswer(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', url.pathname, head)
		})
	})
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		bucket,
		region,
		accessKeyId,
		secretAccessKey,
		objects,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}
