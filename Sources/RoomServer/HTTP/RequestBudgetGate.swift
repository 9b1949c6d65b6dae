import Foundation
import HTTPTypes
import Metrics
import RoomCore
import Synchronization

/// Token buckets of this instance's share of every request budget (#41):
/// a tenant's client routes, its admin keys, one account's session, and the
/// failed admin keys of one client address. The share is the budget over the
/// instances alive (`InstanceRoster`), so nothing is written per request.
/// A refusal says when to come back and which budget it met, for the
/// `Retry-After`, `RateLimit-Policy` and `RateLimit` headers.
final class RequestBudgetGate: Sendable {
    enum Scope: Hashable, Sendable {
        case client(TenantID)
        case admin(TenantID)
        /// A session credential's digest on a tenant's client routes.
        case account(TenantID, String)
        /// Failed admin keys from one address (IPv6 by its /64).
        case failedAdminKeys(String)

        /// The budget's name in `RateLimit-Policy` and the metric's `reason`.
        var name: String {
            switch self {
            case .client: "client"
            case .admin: "admin"
            case .account: "account"
            case .failedAdminKeys: "failed_admin_keys"
            }
        }

        var tenant: TenantID {
            switch self {
            case .client(let tenant), .admin(let tenant), .account(let tenant, _): tenant
            case .failedAdminKeys: "-"
            }
        }
    }

    /// Failed admin keys an address may send: 10 at once, then one a second.
    static let failedAdminKeys = RequestBudgets.Budget(perSecond: 1, burst: 10)

    struct Refusal: Sendable {
        let scope: Scope
        let budget: RequestBudgets.Budget
        /// Whole seconds until a request would be admitted (at least 1).
        let retryAfter: Int

        /// `Retry-After` and the IETF RateLimit fields
        /// (draft-ietf-httpapi-ratelimit-headers): the policy is the whole
        /// budget a second, the limit's state none left for `retryAfter`.
        func apply(to headers: inout HTTPFields) {
            headers[.retryAfter] = String(retryAfter)
            headers[Self.policy] = "\"\(scope.name)\";q=\(budget.perSecond);w=1"
            headers[Self.limit] = "\"\(scope.name)\";r=0;t=\(retryAfter)"
        }

        static let policy = HTTPField.Name("RateLimit-Policy")!
        static let limit = HTTPField.Name("RateLimit")!
    }

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
        var rate: Double
        var burst: Double

        mutating func refill(_ now: ContinuousClock.Instant) {
            let elapsed = now - updated
            let seconds = elapsed.inSeconds
            tokens = min(burst, tokens + seconds * rate)
            updated = now
        }
    }

    /// Buckets past this many are pruned of the full ones (an idle bucket
    /// is the same as none): one account per session would grow without end.
    static let pruneAbove = 20_000

    let roster: InstanceRoster?
    /// How long a refusal is held before it is answered.
    let answerDelay: Duration
    private let buckets = Mutex<[Scope: Bucket]>([:])
    private let counters = MadeOnce<Scope, Counter>()

    init(roster: InstanceRoster?, answerDelay: Duration = .zero) {
        self.roster = roster
        self.answerDelay = answerDelay
    }

    /// A refusal is returned only after `answerDelay` (`ServerOptions.throttledAnswerDelay`):
    /// a client that retries at once is slowed to one request a connection
    /// a second, without a thread or a core held meanwhile.
    private func held(_ refusal: Refusal?) async -> Refusal? {
        if refusal != nil, answerDelay > .zero { try? await Task.sleep(for: answerDelay) }
        return refusal
    }

    /// How far ahead of its budget a request may be and still wait for its
    /// place instead of being refused (nginx's `limit_req` without
    /// `nodelay`): a tenant's admitted requests then run at its budget's
    /// pace, not in waves. Why: refusals held 1 s came back together and
    /// found the 500 tokens saved meanwhile, so a flooding tenant's second
    /// was half a second of saturation and half idle (ops/bench figure 6:
    /// the other tenant's room list, read from memory, p90 1.4 → 7.6 ms in
    /// the saturated halves). A quarter second covers 64 connections at
    /// 500 a second (128 ms) and never delays a request of a budget of one
    /// a second (its next place is a second away: refused, as before).
    static let pacedWithin = 0.25

    /// nil when the request is within `scope`'s share of `budget` (and is
    /// counted), perhaps after waiting up to `pacedWithin` for its place;
    /// else the refusal, counted in `roomkeeper_throttled_requests_total{tenant, reason}` and held.
    func admit(_ scope: Scope, budget: RequestBudgets.Budget) async -> Refusal? {
        switch take(scope, budget: budget, pacedWithin: Self.pacedWithin) {
        case .admitted: return nil
        case .paced(let seconds):
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        case .refused(let refusal): return await held(refusal)
        }
    }

    /// Whether `scope` has nothing left now, without taking anything; a refusal is held.
    func isExhausted(_ scope: Scope, budget: RequestBudgets.Budget) async -> Refusal? {
        await held(peek(scope, budget: budget))
    }

    /// Takes from `scope`'s bucket without holding a refusal (an unknown
    /// admin key is answered 401 at once; the next one waits, `isExhausted`).
    func count(_ scope: Scope, budget: RequestBudgets.Budget) -> Refusal? {
        if case .refused(let refusal) = take(scope, budget: budget, pacedWithin: 0) { return refusal }
        return nil
    }

    private enum Taken {
        case admitted
        /// Admitted, its token taken now, to run this many seconds from now.
        case paced(Double)
        case refused(Refusal)
    }

    private func take(_ scope: Scope, budget: RequestBudgets.Budget, pacedWithin: Double) -> Taken {
        let instances = Double(max(1, roster?.instances ?? 1))
        let rate = max(Double(budget.perSecond) / instances, 0.001)
        let burst = max(Double(budget.burst) / instances, 1)
        let now = ContinuousClock.now
        // (admitted, seconds): run in `seconds`, or refused, its place `seconds` away.
        let (admitted, wait): (Bool, Double) = buckets.withLock { buckets in
            var bucket = buckets[scope] ?? Bucket(tokens: burst, updated: now, rate: rate, burst: burst)
            bucket.rate = rate
            bucket.burst = burst
            bucket.refill(now)
            defer {
                buckets[scope] = bucket
                if buckets.count > Self.pruneAbove { Self.prune(&buckets, now) }
            }
            let wait = max(0, (1 - bucket.tokens) / rate)
            guard wait <= pacedWithin else { return (false, wait) }
            // A paced request takes its token now (the bucket goes into
            // debt), so those after it wait behind it.
            bucket.tokens -= 1
            return (true, wait)
        }
        if admitted { return wait > 0 ? .paced(wait) : .admitted }
        throttled(scope).increment()
        return .refused(Refusal(scope: scope, budget: budget, retryAfter: max(1, Int(wait.rounded(.up)))))
    }

    private func peek(_ scope: Scope, budget: RequestBudgets.Budget) -> Refusal? {
        let now = ContinuousClock.now
        let wait: Double? = buckets.withLock { buckets in
            guard var bucket = buckets[scope] else { return nil }
            bucket.refill(now)
            buckets[scope] = bucket
            return bucket.tokens >= 1 ? nil : (1 - bucket.tokens) / bucket.rate
        }
        guard let wait else { return nil }
        throttled(scope).increment()
        return Refusal(scope: scope, budget: budget, retryAfter: max(1, Int(wait.rounded(.up))))
    }

    private static func prune(_ buckets: inout [Scope: Bucket], _ now: ContinuousClock.Instant) {
        for (scope, var bucket) in buckets {
            bucket.refill(now)
            if bucket.tokens >= bucket.burst { buckets[scope] = nil }
        }
    }

    private func throttled(_ scope: Scope) -> Counter {
        // One series a tenant and reason (an account's scope counts as its tenant's).
        let key: Scope = switch scope {
        case .account(let tenant, _): .account(tenant, "")
        case .failedAdminKeys: .failedAdminKeys("")
        default: scope
        }
        return counters.value(for: key) {
            Counter(label: "roomkeeper_throttled_requests_total", dimensions: [("tenant", key.tenant), ("reason", key.name)])
        }
    }
}
