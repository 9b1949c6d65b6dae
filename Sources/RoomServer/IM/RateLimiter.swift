/// A token bucket: `burst` frames at once, refilled at `perSecond`.
struct RateLimiter {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
        last = .now
    }

    mutating func allow(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = now - last
        last = now
        let seconds = elapsed.inSeconds
        tokens = min(burst, tokens + seconds * perSecond)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
