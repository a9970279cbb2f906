// What bench/realtime.ts and its forked bench/realtime-server.ts share.
import { type AppConfig } from '#realtime/index.ts'

export const BENCH_APP = { id: 'bench', key: 'bench-key', secret: 'bench-secret' } satisfies AppConfig

export type ServerRequest = { type: 'stats' } | { type: 'close' }

export type ServerMessage = { type: 'listening'; port: number } | { type: 'stats'; rss: number; heapUsed: number; connections: number }
