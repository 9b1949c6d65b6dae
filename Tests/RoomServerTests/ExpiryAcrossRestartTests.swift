import Foundation
import RoomCore
import RoomTestSupport
import Testing

@Suite struct ExpiryAcrossRestartTests {
    /// The deadline lives in the row, not in a timer: a room created with a
    /// 2 s TTL closes with reason expired within 10 s even when the server
    /// that created it stopped and another started.
    @Test func aTwoSecondRoomExpiresAcrossARestart() async throws {
        let fixture = try await ServerFixture(clock: SystemClock(), sweepInterval: .milliseconds(200))
        let tenant = fixture.id(0)
        let path = "/admin/v1/tenants/\(tenant)/rooms"
        let id = try await fixture.live { http in
            let created = try await http.post(path, key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"short","owner":"o","ttlSeconds":2}"#)
            return try #require(created.json["id"]?.int64)
        }
        // No server runs while the deadline passes.
        try await Task.sleep(for: .seconds(2.5))
        try await fixture.live { http in
            let started = ContinuousClock.now
            var room = JSONValue.null
            while ContinuousClock.now - started < .seconds(10) {
                room = try await http.get("\(path)/\(id)", key: fixture.operatorKey).json["room"] ?? .null
                if room["state"]?.string == "closed" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(room["state"]?.string == "closed")
            #expect(room["closeReason"]?.string == "expired")
        }
    }
}
