import { type WebhookConfig } from './webhooks.ts'

export interface AppConfig {
	id: string
	key: string
	secret: string
	enabled?: boolean
	// Where the app's webhooks go (presence's member_added and member_removed), as Soketi configures them.
	webhooks?: readonly WebhookConfig[]
	maxConnections?: number
	clientEvents?: boolean
	maxClientEventsPerSecond?: number
	maxPresenceMembers?: number
	maxPresenceMemberBytes?: number
	maxEventBytes?: number
}

export interface AppLimits {
	maxConnections: number
	clientEvents: boolean
	maxClientEventsPerSecond: number
	maxPresenceMembers: number
	maxPresenceMemberBytes: number
	maxEventBytes: number
}

export interface App extends AppLimits {
	id: string
	key: string
	secret: string
	enabled: boolean
	webhooks?: readonly WebhookConfig[]
}

export const DEFAULT_APP_LIMITS: AppLimits = {
	maxConnections: Infinity,
	clientEvents: true,
	maxClientEventsPerSecond: 10,
	maxPresenceMembers: 100,
	maxPresenceMemberBytes: 1024,
	maxEventBytes: 10 * 1024,
}

export class AppRegistry {
	private readonly byIdMap = new Map<string, App>()
	private readonly byKeyMap = new Map<string, App>()

	constructor(configs: readonly AppConfig[], defaults: Partial<AppLimits> = {}) {
		const limits = { ...DEFAULT_APP_LIMITS, ...stripUndefined(defaults) }
		for (const config of configs) {
			if (config.id === '' || config.key === '' || config.secret === '') {
				throw new Error('Realtime app config needs a non-empty id, key and secret')
			}
			if (this.byIdMap.has(config.id)) throw new Error(`Duplicate realtime app id: ${config.id}`)
			if (this.byKeyMap.has(config.key)) throw new Error(`Duplicate realtime app key for app ${config.id}`)
			const app: App = {
				...limits,
				...stripUndefined(config),
				id: config.id,
				key: config.key,
				secret: config.secret,
				enabled: config.enabled ?? true,
			}
			this.byIdMap.set(app.id, app)
			this.byKeyMap.set(app.key, app)
		}
	}

	byId(id: string): App | undefined {
		return this.byIdMap.get(id)
	}

	byKey(key: string): App | undefined {
		return this.byKeyMap.get(key)
	}

	all(): IterableIterator<App> {
		return this.byIdMap.values()
	}
}

function stripUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>
}
