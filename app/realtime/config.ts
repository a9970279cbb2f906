/**
 * What the browser needs to open the realtime connection (pusher-js options), decided by the
 * server from its configuration and handed over by the dashboard layout's loader. Public values only.
 */
export type RealtimeBrowserConfig = {
	/** The app key; null when none is configured (the app then works without realtime). */
	key: string | null
	cluster: string
	/** Host and port of a Pusher-protocol server; null for Pusher Channels, which pusher-js finds from the cluster. */
	wsHost: string | null
	wsPort: number | null
	forceTLS: boolean
}

/** The user and configuration a browser's realtime connection belongs to. */
export type RealtimeSession = { config: RealtimeBrowserConfig; userId: string }
