import Foundation

/// A tenant's request budgets (`[limits]` in its file, #41): requests a
/// second and a burst, for its client routes, for its admin API keys, and
/// for one account (one session credential) on client routes. Past a budget
/// a request is answered 429 before it reads or writes anything.
///
/// The defaults protect the other tenants when a file sets none: the whole
/// service did about 1,550 guest logins a second on the bench machine, so
/// 500 a second (a burst of 1,000) for one tenant's clients leaves two
/// thirds of it to the rest, and 50 for one account is far above what one
/// app sends.
public struct RequestBudgets: Sendable, Equatable {
    public struct Budget: Sendable, Equatable {
        public var perSecond: Int
        public var burst: Int

        public init(perSecond: Int, burst: Int) {
            self.perSecond = perSecond
            self.burst = burst
        }
    }

    public var client = Budget(perSecond: 500, burst: 1_000)
    public var admin = Budget(perSecond: 50, burst: 100)
    public var account = Budget(perSecond: 50, burst: 100)

    public init() {}

    public init(_ reader: SettingsReader) {
        client = Self.read(reader, "client", default: client)
        admin = Self.read(reader, "admin", default: admin)
        account = Self.read(reader, "account", default: account)
    }

    private static func read(_ reader: SettingsReader, _ name: String, default fallback: Budget) -> Budget {
        let perSecond = reader.int("\(name)PerSecond", default: fallback.perSecond, in: 1...1_000_000)
        // A burst below the rate would refuse a steady rate the budget allows.
        let burst = reader.int("\(name)Burst", default: max(fallback.burst, perSecond), in: 1...10_000_000)
        if burst < perSecond { reader.report("\(name)Burst", "must be at least \(name)PerSecond (\(perSecond))") }
        return Budget(perSecond: perSecond, burst: burst)
    }
}
