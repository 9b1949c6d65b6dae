import Foundation

/// How fast one room's joins are written on one instance (#41: "a hot room
/// is slow only for itself"): a token bucket the room's batch leader asks
/// before it takes its batch (`RoomJoinQueue`). Pure: the clock is passed
/// in, so the rule is tested without I/O (`RoomJoinPaceTests`).
///
/// Why a pace at all: the joins' own client waits for each answer, so an
/// unpaced hot room takes every core there is. ops/bench figure 7 (2,000
/// members from 64 connections, 2 cores): the other tenant's seat cycles
/// ×1.43-3.18 of alone unpaced (median ×2.02 over 21 runs, 1,590-2,830
/// joins/s); on a slower day ×1.52 and ×3.74 unpaced against ×1.26 and
/// ×1.31 with the room held to 600 a second
/// (`docs/bench/2026-12-02-figure-7-a-rooms-join-pace.md`). Request slots,
/// pool shares and thread priorities did not reach that CPU: it is the
/// joins' HTTP on the event loops and their PostgreSQL backends.
///
/// Why a chunk, not a batch: a leader short of tokens waits for 20 ms of
/// the pace (`chunkSeconds`), not for a whole batch's worth (up to 256), so
/// the wait it adds to the joins it carries stays at 20 ms, and a paced
/// room writes about 50 small batches a second rather than a few large
/// ones whose answers would come back at once. (Not measured against
/// larger chunks.)
public struct RoomJoinPace: Sendable, Equatable {
    public let perSecond: Double
    public let burst: Double
    private(set) var tokens: Double
    private(set) var at: Double

    /// The wait a leader short of tokens accepts, as seconds of the pace.
    static let chunkSeconds = 0.02

    /// Tokens (and seconds) below which a difference is rounding.
    static let slack = 1e-6

    public enum Decision: Sendable, Equatable {
        /// Write this many joins now (the leader's own included).
        case take(Int)
        /// Ask again after this many seconds.
        case wait(Double)
    }

    /// A full bucket at `now` (seconds of a monotonic clock).
    public init(perSecond: Int, burst: Int, now: Double) {
        self.perSecond = Double(max(1, perSecond))
        self.burst = Double(max(1, burst))
        self.tokens = self.burst
        self.at = now
    }

    /// `wanted`: the joins waiting, the leader's own included (at least 1).
    public mutating func decide(wanted: Int, now: Double) -> Decision {
        refill(now)
        let wanted = max(1, wanted)
        let chunk = min(Double(wanted), max(1, (perSecond * Self.chunkSeconds).rounded(.down)))
        // Within a millionth of a token counts as there: 0.02 s at 1,100 a
        // second refills 21.999999999999996 tokens, and the wait for the
        // rest (3e-18 s) would not move a clock of 0.02 s (its ulp is 3.5e-18).
        let available = tokens + Self.slack
        guard available >= chunk else { return .wait(max((chunk - tokens) / perSecond, Self.slack)) }
        let taken = min(wanted, Int(available.rounded(.down)))
        tokens = max(0, tokens - Double(taken))
        return .take(taken)
    }

    /// Whether this pace is `budget`'s (a reload may have changed it).
    public func isPaced(by budget: RequestBudgets.Budget) -> Bool {
        perSecond == Double(max(1, budget.perSecond)) && burst == Double(max(1, budget.burst))
    }

    /// Whether the bucket is full by `now`: a room whose pace can be
    /// forgotten, since a new one would start the same.
    public func isFull(at now: Double) -> Bool {
        tokens + max(0, now - at) * perSecond >= burst
    }

    private mutating func refill(_ now: Double) {
        guard now > at else { return }
        tokens = min(burst, tokens + (now - at) * perSecond)
        at = now
    }
}
