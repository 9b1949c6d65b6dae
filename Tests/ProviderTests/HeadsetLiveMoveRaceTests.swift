import Foundation
import HeadsetLive
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// Different moves racing on one live room (#28: per plugin, two different
/// moves racing on one room many times): two intercom starts and the
/// owner's stop, sent at once. What each was answered and what the room kept
/// are what one serial order of the three would give: an intercom before the
/// stop is started and ended with the room, one after it is refused and
/// records nothing, and the stop always stops.
@Suite struct HeadsetLiveMoveRaceTests {
    enum Move { case intercom, stop }
    enum Outcome: Equatable { case started, refused, stopped }

    @Test func racingMovesEndAsOneSerialOrder() async throws {
        let fixture = try await HeadsetLiveTests.fixture("", clock: ManualClock())
        try await fixture.live { http in
            let base = "/t/\(fixture.id(0))/headset-live"
            let port = try #require(http.client.port)
            let phone = try await HeadsetLiveTests.Phone.login(http, base)
            _ = try await phone.call("/device/bind", "deviceId=RACE-0001")
            for round in 0..<10 {
                let roomID = try #require(data(try await phone.call("/live/start", "deviceId=RACE-0001"))?["roomId"]?.int64)
                let moves: [Move] = [.intercom, .intercom, .stop]
                let answers = try await ParallelRequests.send(port: port, moves.map { move in
                    ParallelRequests.Request(path: "\(base)\(move == .intercom ? "/intercom/start" : "/live/stop")", body: "sid=\(phone.sid)&roomId=\(roomID)")
                })
                var observed = [Outcome?](repeating: nil, count: moves.count)
                for (index, answer) in answers {
                    switch (moves[index], answer["code"]?.int64) {
                    case (.stop, 200): observed[index] = .stopped
                    case (.intercom, 200): observed[index] = .started
                    case (.intercom, 801?), (.intercom, 804?): observed[index] = .refused
                    default: Issue.record("round \(round), move \(index): \(answer)")
                    }
                }
                let sessions = try await fixture.database.query("""
                    SELECT count(*)::int, count(*) FILTER (WHERE ended_at IS NULL)::int FROM headset_intercom
                    WHERE tenant_id = \(fixture.id(0)) AND room_id = \(roomID)
                    """).decode((Int, Int).self).first
                #expect(sessions?.1 == 0, "round \(round): no intercom session outlives its room")

                let matches = serialOrders(of: moves.count).contains { order in
                    var stopped = false, recorded = 0, outcomes = [Outcome?](repeating: nil, count: moves.count)
                    for index in order {
                        switch moves[index] {
                        case .stop:
                            stopped = true
                            outcomes[index] = .stopped
                        case .intercom:
                            if stopped {
                                outcomes[index] = .refused
                            } else {
                                recorded += 1
                                outcomes[index] = .started
                            }
                        }
                    }
                    return outcomes == observed && recorded == sessions?.0
                }
                #expect(matches, "round \(round): answered \(observed), recorded \(String(describing: sessions))")
            }
        }
    }
}
