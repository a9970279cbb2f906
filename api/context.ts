import { type Logger } from 'pino'
import { type Config } from '#server/config.ts'
import { type DB } from './db/database.ts'
import { type Mailer } from './mail/mailer.ts'
import { type Realtime } from './realtime/publisher.ts'

/** What every feature router is built with; its own module, so routers need not import `api/index.ts`. */
export type ApiContext = { db: DB; config: Config; logger: Logger; mailer: Mailer; realtime: Realtime }
