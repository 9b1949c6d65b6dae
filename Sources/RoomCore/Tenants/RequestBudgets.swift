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
    /// Joins written into one room a second, on each instance, and the
    /// joins a room takes at once before its pace begins (`RoomJoinPace`;
    /// past them, joins wait in the room's queue, and past two seconds of
    /// waiters they are refused as too many). 1,000 a second is what #41
    /// asks of one room; a room joined faster takes cores from every other
    /// tenant: ops/bench figure 7 on 2 cores, the other tenant's p99 ×1.26
    /// and ×1.31 of alone with the room held to 600 a second, ×1.52 and
    /// ×3.74 unpaced (934-999 joins/s; 1,590-2,830 on faster days, median
    /// ×2.02). A burst of 100: a crowd entering a room at once goes at once.
    public var roomJoins = Budget(perSecond: 1_000, burst: 100)

    public init() {}

    public init(_ reader: SettingsReader) {
        client = Self.read(reader, "client", default: client)
        admin = Self.read(reader, "admin", default: admin)
        account = Self.read(reader, "account", default: account)
        // A room's burst may be below its rate: it is how many joins go
        // unpaced, not a second's worth.
        roomJoins = Budget(perSecond: reader.int("roomJoinsPerSecond", default: roomJoins.perSecond, in: 1...1_000_000),
                           burst: reader.int("roomJoinsBurst", default: roomJoins.burst, in: 1...1_000_000))
    }

    private static func read(_ reader: SettingsReader, _ name: String, default fallback: Budget) -> Budget {
        let perSecond = reader.int("\(name)PerSecond", default: fallback.perSecond, in: 1...1_000_000)
        // A burst below the rate would refuse a steady rate the budget allows.
        let burst = reader.int("\(name)Burst", default: max(fallback.burst, perSecond), in: 1...10_000_000)
        if burst < perSecond { reader.report("\(name)Burst", "must be at least \(name)PerSecond (\(perSecond))") }
        return Budget(perSecond: perSecond, burst: burst)
    }
}
