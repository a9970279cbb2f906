import { type RealtimeBrowserConfig } from '#common/realtime.ts'

/** The user and configuration a browser's realtime connection belongs to. */
export type RealtimeSession = { config: RealtimeBrowserConfig; userId: string }
