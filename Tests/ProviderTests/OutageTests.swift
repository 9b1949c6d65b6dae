import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// The vendor answers 5xx or hangs: client calls fail fast with a clear
/// error; outbox side effects wait, retry, and are delivered once the
/// vendor recovers, none twice.
@Suite struct OutageTests {
    @Test func clientCallsFailFastAndSideEffectsArriveOnceAfterRecovery() async throws {
        let fake = FakeNetEase()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.netease(url, timeout: "1s"), clock: SystemClock())
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/audio-chatroom"
                let host = try #require(try await http.form("\(base)/user/get", "")["data"]?["sid"]?.string)
                let guest = try #require(try await http.form("\(base)/user/get", "")["data"]?["sid"]?.string)
                let roomID = try #require(try await http.form("\(base)/room/create", "sid=\(host)&roomName=Storm")["data"]?["roomId"]?.int64)

                for mode in [FakeMode.hang, .unavailable] {
                    fake.vendor.mode = mode
                    let started = ContinuousClock.now
                    let answer = try await http.form("\(base)/user/get", "")
                    #expect(answer["code"] == .number(800) && answer["msg"]?.string?.contains("IM service") == true, "\(mode): \(answer)")
                    #expect(ContinuousClock.now - started < .seconds(2.5), "\(mode): bounded by the tenant's 1 s timeout")
                }

                // The admin API says the vendor is away (schemathesis met a 500 here).
                fake.vendor.mode = .unavailable
                let created = try await http.post("/admin/v1/tenants/\(fixture.id(0))/rooms", key: fixture.operatorKey,
                                                  json: #"{"plugin":"audio-chatroom","name":"Admin storm","owner":"admin-owner"}"#)
                #expect(created.status == .serviceUnavailable && created.json["code"]?.string == "provider_unavailable"
                        && created.headers[.retryAfter] == "5", "\(created.status) \(created.text)")

                // Side effects queued during the outage: a seat's queue element, then the close.
                #expect(try await http.form("\(base)/mic/apply", "sid=\(guest)&roomId=\(roomID)&index=2")["code"] == .number(200))
                #expect(try await http.form("\(base)/room/dissolve", "sid=\(host)&roomId=\(roomID)")["code"] == .number(200))
                let outbox = "/admin/v1/tenants/\(fixture.id(0))/outbox?status=pending"
                #expect(try await eventually {
                    guard case .array(let items)? = try await http.get(outbox, key: fixture.operatorKey).json["items"] else { return false }
                    return items.contains { ($0["attempts"]?.int64 ?? 0) >= 1 }
                }, "delivery was tried and is pending again")
                fake.vendor.mode = .hang
                try await Task.sleep(for: .seconds(1.5))
                #expect(fake.vendor.calls(to: "/chatroom/queueOffer.action").isEmpty && fake.isOpen(String(roomID)))

                fake.vendor.mode = .normal
                #expect(try await eventually(20) { !fake.isOpen(String(roomID)) }, "delivered after recovery")
                try await Task.sleep(for: .seconds(1.5))
                #expect(fake.vendor.calls(to: "/chatroom/queueOffer.action").count == 1, "none twice")
                #expect(fake.vendor.calls(to: "/msg/sendAttachMsg.action").count == 1)
                #expect(fake.vendor.calls(to: "/chatroom/toggleCloseStat.action").count == 1)
                let offered = try #require(fake.vendor.calls(to: "/chatroom/queueOffer.action").first?.form)
                #expect(offered["key"] == "queue_2" && JSONValue.parse(offered["value"] ?? "")?["status"] == .number(1))
                guard case .array(let pending)? = try await http.get(outbox, key: fixture.operatorKey).json["items"] else { Issue.record("outbox"); return }
                #expect(pending.isEmpty)
            }
        }
    }
}
