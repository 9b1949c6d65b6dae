import Foundation
import HeadsetLive
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// headset-live state written beside a close (#28): an intercom session is
/// recorded on the live room, locked, so a close racing it ends it too.
@Suite struct HeadsetLiveRaceTests {
    @Test func anIntercomStartedAsTheRoomClosesEndsWithTheRoom() async throws {
        let fixture = try await HeadsetLiveTests.fixture("", clock: ManualClock())
        try await fixture.live { http in
            let base = "/t/\(fixture.id(0))/headset-live"
            let port = try #require(http.client.port)
            let phone = try await HeadsetLiveTests.Phone.login(http, base)
            _ = try await phone.call("/device/bind", "deviceId=GATE-0001")
            let roomID = try #require(data(try await phone.call("/live/start", "deviceId=GATE-0001"))?["roomId"]?.int64)

            // The intercom's write waits at the gate; the owner stops the live room meanwhile.
            let gate = try await StatementGate(fixture.database, table: "headset_intercom", when: "NEW.tenant_id = '\(fixture.id(0))'")
            let intercom = PendingRequest(port: port, path: "\(base)/intercom/start", body: "sid=\(phone.sid)&roomId=\(roomID)")
            #expect(try await StatementGate.until(10) { try await gate.waiting() == 1 }, "the intercom's insert reached the gate")
            let stop = PendingRequest(port: port, path: "\(base)/live/stop", body: "sid=\(phone.sid)&roomId=\(roomID)")
            // Either the close waits for the intercom's transaction, or (the defect) it finishes first.
            _ = try await StatementGate.until(5) {
                if stop.isAnswered { return true }
                return try await gate.waitingForRows() > 0
            }
            try await gate.open()
            let started = try await intercom.answer, stopped = try await stop.answer
            #expect(stopped["code"] == .number(200), "\(stopped)")
            #expect(started["code"] == .number(200) || started["code"] == .number(801), "\(started)")
            let open = try await fixture.database.query("""
                SELECT count(*)::int FROM headset_intercom WHERE tenant_id = \(fixture.id(0)) AND room_id = \(roomID) AND ended_at IS NULL
                """).decode(Int.self).first
            #expect(open == 0, "no intercom session outlives its room")
        }
    }
}
