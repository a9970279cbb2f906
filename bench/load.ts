/**
 * The load generator of the benches (bench/run.ts, bench/campaigns.ts): autocannon, closed loop,
 * each response time kept, Ctrl-C stopping it (bench/server.ts).
 */
import { createRequire } from 'node:module'
import { whenInterrupted } from './server.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'

export type BenchRequest = {
	path: string
	method?: Method
	headers?: Record<string, string>
	body?: string
	/** Paths taken in turn, one per request, instead of `path` (writes spread over many rows, as many users' would be). */
	paths?: string[]
	/** Headers of the request of that turn, on top of `headers` (sign-ins from many addresses behind a proxy). */
	headersFor?: (turn: number) => Record<string, string>
}

// autocannon ships no types: the part of its API used here.

type AutocannonOptions = {
	url: string
	method?: Method
	headers?: Record<string, string>
	body?: string
	connections: number
	duration: number
	pipelining?: number
	timeout?: number
	/** Requests a second across all connections (open loop at that rate); none: as fast as they answer. */
	overallRate?: number
	requests?: Array<{ setupRequest: (request: { path: string; headers?: Record<string, string> }) => { path: string; headers?: Record<string, string> } }>
}

export type AutocannonResult = {
	duration: number
	errors: number
	timeouts: number
	non2xx: number
	statusCodeStats: Record<string, { count: number }>
	requests: { average: number; total: number; sent: number }
	latency: { p50: number; p99: number }
	throughput: { average: number }
}

type AutocannonInstance = {
	stop: () => void
	on: (event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void) => void
}

type Autocannon = (options: AutocannonOptions, callback: (error: Error | null, result: AutocannonResult) => void) => AutocannonInstance

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

/**
 * `connections` closed-loop connections for `seconds` (or until `stop` resolves, whichever comes
 * first), at most `overallRate` requests a second when given; every response time kept (autocannon's histogram keeps whole milliseconds), sorted.
 */
export function attack(
	request: Required<Pick<BenchRequest, 'method'>> & BenchRequest,
	baseUrl: string,
	connections: number,
	seconds: number,
	stop?: Promise<unknown>,
	overallRate?: number,
) {
	const { paths, headersFor } = request
	let turn = 0
	// autocannon's histogram keeps whole milliseconds: the response times are kept here as well.
	let samples = new Float64Array(16_384)
	let count = 0
	return new Promise<{ result: AutocannonResult; latencies: Float64Array }>((resolve, reject) => {
		const instance = autocannon(
			{
				url: new URL(request.path, baseUrl).href,
				method: request.method,
				headers: request.headers,
				body: request.body,
				connections,
				duration: seconds,
				pipelining: 1,
				timeout: 10,
				overallRate,
				requests:
					paths?.length || headersFor
						? [
								{
									setupRequest: (next) => {
										const at = turn++
										return {
											...next,
											path: paths?.length ? (paths[at % paths.length] ?? next.path) : next.path,
											headers: headersFor ? { ...next.headers, ...headersFor(at) } : next.headers,
										}
									},
								},
							]
						: undefined,
			},
			(error, result) => {
				whenInterrupted(undefined)
				if (error) reject(error)
				else resolve({ result, latencies: samples.subarray(0, count).sort() })
			},
		)
		whenInterrupted(() => instance.stop())
		void stop?.then(() => instance.stop())
		instance.on('response', (_client, _status, _bytes, responseTime) => {
			if (count === samples.length) {
				const grown = new Float64Array(samples.length * 2)
				grown.set(samples)
				samples = grown
			}
			samples[count++] = responseTime
		})
	})
}
