@testable import RoomCore
import Testing

/// A room's join pace without I/O (#41): the burst goes at once, then
/// joins go at the pace in chunks of 20 ms of it, and a second's joins
/// never exceed the burst plus the rate.
@Suite struct RoomJoinPaceTests {
    /// (pace, burst, joins waiting) → what goes at once, the wait once
    /// empty, and what goes after it.
    static let cases: [(perSecond: Int, burst: Int, wanted: Int, atOnce: [Int], wait: Double, after: Int)] = [
        (1_000, 100, 64, [64, 36], 0.02, 20), // the burst, then a chunk: 20 ms of the pace
        (1_000, 1, 1, [1], 0.001, 1),         // one join waits only for its own token
        (10, 1, 5, [1], 0.1, 1),              // a pace under 50 a second still goes one at a time
    ]

    @Test(arguments: cases.indices) func aBurstGoesAtOnceThenTheRoomWaitsForAChunk(_ index: Int) {
        let asked = Self.cases[index]
        var pace = RoomJoinPace(perSecond: asked.perSecond, burst: asked.burst, now: 0)
        for count in asked.atOnce { #expect(pace.decide(wanted: asked.wanted, now: 0) == .take(count)) }
        switch pace.decide(wanted: asked.wanted, now: 0) {
        case .wait(let seconds): #expect(abs(seconds - asked.wait) < 1e-9, "waited \(seconds)")
        case .take(let count): Issue.record("an empty bucket let \(count) through")
        }
        #expect(pace.decide(wanted: asked.wanted, now: asked.wait) == .take(asked.after))
    }

    @Test func aSecondsJoinsNeverPassTheBurstAndTheRate() {
        var pace = RoomJoinPace(perSecond: 1_100, burst: 100, now: 0)
        var now = 0.0, taken = 0, decisions = 0
        while now < 1 && decisions < 10_000 {
            decisions += 1
            switch pace.decide(wanted: 256, now: now) {
            case .take(let count): taken += count
            case .wait(let seconds): now += seconds
            }
        }
        // 0.02 s at 1,100 a second is 21.999999999999996 tokens: before the
        // slack, the wait for the rest did not move the clock, forever.
        #expect(decisions < 10_000, "the pace asked to wait without the clock moving")
        #expect(taken <= 100 + 1_100)
        #expect(taken >= 1_100)
    }

    @Test func aBucketRefillsToItsBurstAndIsThenForgettable() {
        var pace = RoomJoinPace(perSecond: 100, burst: 50, now: 0)
        #expect(pace.decide(wanted: 50, now: 0) == .take(50))
        #expect(!pace.isFull(at: 0.4))
        #expect(pace.isFull(at: 0.5))
        #expect(pace.decide(wanted: 256, now: 10) == .take(50))
    }

    /// A tenant reload that changes `roomJoinsPerSecond` paces a room that
    /// already has a pace by the new one (before: the room kept the pace it
    /// was first given until the instance forgot it).
    @Test func aReloadsNewPaceAppliesToARoomAlreadyPaced() async {
        struct Refused: Error {}
        let queue = RoomJoinQueue(), key = RoomWriteQueue.Key(tenant: "t", room: 1)
        let request = RoomJoinQueue.Request(account: "a", role: "member", inIMChatroom: nil, pluginID: nil)
        for budget in [RequestBudgets.Budget(perSecond: 10, burst: 1), RequestBudgets.Budget(perSecond: 2_000, burst: 200)] {
            _ = try? await queue.join(key, request, pace: budget) { requests in requests.map { _ in .failure(Refused()) } }
            #expect(queue.pace(of: key)?.isPaced(by: budget) == true, "the room's pace after a join paced by \(budget)")
        }
    }
}
