import { type Logger } from 'pino'
import { type Config } from '#config/config.ts'
import { type DB } from './db/database.ts'
import { type Realtime } from './realtime/publisher.ts'

/** What every feature router is built with; its own module, so routers need not import `api/index.ts`. Mail is queued (api/mail/jobs.ts), never sent by a request. */
export type ApiContext = { db: DB; config: Config; logger: Logger; realtime: Realtime }
