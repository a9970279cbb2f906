// Token bucket: allows bursts up to `capacity`, refilled continuously at `perSecond`.
export class TokenBucket {
	private tokens: number
	private updatedAt: number

	constructor(
		private readonly capacity: number,
		private readonly perSecond: number,
		private readonly now: () => number = Date.now,
	) {
		this.tokens = capacity
		this.updatedAt = now()
	}

	take(): boolean {
		const now = this.now()
		this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond)
		this.updatedAt = now
		if (this.tokens < 1) return false
		this.tokens -= 1
		return true
	}
}
