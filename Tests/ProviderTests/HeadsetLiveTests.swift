import Crypto
import Foundation
import HeadsetLive
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// headset-live over real HTTP, with Tencent Cloud Live faked on 127.0.0.1.
@Suite struct HeadsetLiveTests {
    static let plugin = "[plugins.headset-live]\n"

    static func fixture(_ providers: String, clock: ManualClock) async throws -> ServerFixture {
        VendorSecrets.export()
        let table = providers + "\n\n" + plugin
        return try await ServerFixture(pluginTables: [table, table], registry: PluginRegistry([AnyRoomPlugin(HeadsetLivePlugin())]),
                                       clock: clock, sweepInterval: .seconds(3_600))
    }

    static func md5(_ text: String) -> String { Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }

    struct Phone {
        let http: HTTP
        let base: String
        let sid: String

        static func login(_ http: HTTP, _ base: String) async throws -> Phone {
            Phone(http: http, base: base, sid: try #require(try await http.form("\(base)/user/get", "")["data"]?["sid"]?.string))
        }

        func call(_ path: String, _ body: String = "") async throws -> JSONValue {
            try await http.form("\(base)\(path)", "sid=\(sid)&\(body)")
        }
    }

    /// Push/cut callbacks signed as Tencent signs them.
    func callback(_ http: HTTP, _ tenant: TenantID, stream: String, started: Bool, clock: ManualClock) async throws -> HTTP.Answer {
        let t = String(Int64(clock.now().timeIntervalSince1970) + 300)
        let body = #"{"event_type":\#(started ? 1 : 0),"stream_id":"\#(stream)","t":\#(t),"sign":"\#(Self.md5(VendorSecrets.callbackKey + t))"}"#
        return try await http.request(.post, "/t/\(tenant)/callbacks/tencent", json: body)
    }

    @Test func thePhoneFlowFromBindToIdleExpiry() async throws {
        let clock = ManualClock()
        let fake = FakeTencent(clock: clock)
        try await fake.vendor.run { url in
            let fixture = try await Self.fixture(VendorTables.tencent(url), clock: clock)
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/headset-live"
                let phone = try await Phone.login(http, base)
                let bound = try #require(data(try await phone.call("/device/bind", "deviceId=GLASS-0001")))
                #expect(bound["deviceId"]?.string == "GLASS-0001" && bound["boundAt"]?.int64 != nil)

                let started = try #require(data(try await phone.call("/live/start", "deviceId=GLASS-0001&title=Walk")))
                let roomID = try #require(started["roomId"]?.int64)
                let push = try #require(started["pushUrl"]?.string)
                let stream = try #require(push.split(separator: "?").first?.split(separator: "/").last.map(String.init))
                let query = Dictionary(uniqueKeysWithValues: push.split(separator: "?")[1].split(separator: "&").map {
                    let pair = $0.split(separator: "=")
                    return (String(pair[0]), String(pair[1]))
                })
                #expect(push.hasPrefix("rtmp://push.example.com/live/"))
                #expect(query["txSecret"] == Self.md5(VendorSecrets.pushKey + stream + (query["txTime"] ?? "")), "the published txSecret formula")
                #expect(started["liveStatus"] == .number(0) && started["pullUrls"]?["flv"]?.string?.hasPrefix("https://play.example.com/live/") == true)
                let again = try #require(data(try await phone.call("/live/start", "deviceId=GLASS-0001")))
                #expect(again["roomId"]?.int64 == roomID, "one open room per device")

                #expect(try await callback(http, fixture.id(0), stream: stream, started: true, clock: clock).status == .ok)
                fake.publish(stream)
                guard case .array(let live)? = try await phone.call("/live/list")["data"]?["list"] else { Issue.record("list"); return }
                #expect(live.map { $0["roomId"]?.int64 } == [roomID] && live.first?["liveStatus"] == .number(1))
                #expect(data(try await phone.call("/live/query", "roomId=\(roomID)"))?["liveStatus"] == .number(1))
                #expect(try await http.form("\(base)/live/query", "roomId=\(roomID)")["code"] == .number(401), "signed pull URLs need a login")
                #expect(try await http.form("\(base)/live/list", "")["code"] == .number(401))
                // #41: a viewer banned from the room is not handed its signed pull URL by the list either.
                let banned = try await Phone.login(http, base)
                let accid = try #require(data(try await http.form("\(base)/user/get", "sid=\(banned.sid)"))?["accid"]?.string)
                let ban = try await http.post("/admin/v1/tenants/\(fixture.id(0))/rooms/\(roomID)/bans", key: fixture.operatorKey, json: #"{"account":"\#(accid)"}"#)
                #expect(ban.status == .created, "\(ban.text)")
                let bannedList = try await banned.call("/live/list")["data"]
                guard case .array(let seen)? = bannedList?["list"] else { Issue.record("list"); return }
                #expect(seen.isEmpty, "the banned viewer's list: \(seen)")
                #expect(bannedList?["total"] == .number(0), "nor is the room it may not enter counted (#42): \(String(describing: bannedList))")
                guard case .array(let stillLive)? = try await phone.call("/live/list")["data"]?["list"] else { Issue.record("list"); return }
                #expect(stillLive.count == 1, "others still see it")

                let intercom = try #require(data(try await phone.call("/intercom/start", "roomId=\(roomID)")))
                let other = try #require(data(try await phone.call("/intercom/start", "roomId=\(roomID)")))
                #expect(intercom["speakUrl"]?.string?.hasPrefix("rtmp://127.0.0.1:1935/live/intercom-\(roomID)-") == true)
                #expect(intercom["speakUrl"] != other["speakUrl"], "stream names differ per session")

                // Live: the room lives past the idle timeout.
                clock.advance(by: 11 * 60)
                #expect(try await fixture.server().sweeper.sweepOnce() == 0)
                fake.stop(stream)
                #expect(try await callback(http, fixture.id(0), stream: stream, started: false, clock: clock).status == .ok)
                guard case .array(let none)? = try await phone.call("/live/list")["data"]?["list"] else { Issue.record("list"); return }
                #expect(none.isEmpty, "cut: not live any more")
                clock.advance(by: 9 * 60)
                #expect(try await fixture.server().sweeper.sweepOnce() == 0)
                clock.advance(by: 61)
                #expect(try await fixture.server().sweeper.sweepOnce() == 1, "idle 10 minutes after the cut: expired")

                // The stream had stopped: the drop is sent and Tencent answers that it is gone.
                #expect(try await eventually {
                    let pending = try? await fixture.database.query("""
                        SELECT count(*)::int FROM outbox WHERE tenant_id = \(fixture.id(0)) AND status <> 'delivered'
                        """).decode(Int.self).first
                    return pending == 0
                }, "the room's drop and chatroom close were delivered")
                let actions = fake.vendor.calls.compactMap { $0.headers["x-tc-action"] }
                #expect(actions == ["DescribeLiveStreamOnlineList"], "the cut was confirmed with Tencent before it counted")
                let ended = try await fixture.database.query("""
                    SELECT count(*)::int FROM headset_intercom WHERE tenant_id = \(fixture.id(0)) AND room_id = \(roomID) AND ended_at IS NOT NULL
                    """).decode(Int.self).first
                #expect(ended == 2, "the intercom sessions ended with the room")
                #expect(try await phone.call("/live/query", "roomId=\(roomID)")["code"] == .number(801))
                // #18: the stream's start and cut are on the room's timeline, as the plugin's own events.
                let kinds = try await fixture.server().services.engine.store.events(fixture.id(0), roomID).map(\.kind.stored)
                #expect(kinds.filter { $0.hasPrefix("headset-live.") } == [HeadsetLivePlugin.streamStarted, HeadsetLivePlugin.streamCut])
                #expect(kinds.last == "closed")
            }
        }
    }

    @Test func twoPhonesBindingOneDeviceAtOnceHaveOneWinner() async throws {
        let fixture = try await Self.fixture("", clock: ManualClock())
        try await fixture.live { http in
            let base = "/t/\(fixture.id(0))/headset-live"
            for round in 0..<5 {
                let phones = [try await Phone.login(http, base), try await Phone.login(http, base)]
                let codes = try await withThrowingTaskGroup(of: Int64?.self) { group in
                    for phone in phones { group.addTask { try await phone.call("/device/bind", "deviceId=race-\(round)-\(fixture.id(0))")["code"]?.int64 } }
                    return try await group.reduce(into: [Int64?]()) { $0.append($1) }
                }
                #expect(codes.compactMap { $0 }.sorted() == [200, 1301], "round \(round)")
            }
        }
    }

    @Test func everyRefusalHasItsCode() async throws {
        let fixture = try await Self.fixture("", clock: ManualClock())
        try await fixture.live { http in
            let base = "/t/\(fixture.id(0))/headset-live"
            let owner = try await Phone.login(http, base)
            let other = try await Phone.login(http, base)
            #expect(try await owner.call("/device/bind", "deviceId=ab")["code"] == .number(400))
            #expect(try await owner.call("/device/bind", "deviceId=has%20space")["code"] == .number(400))
            #expect(try await owner.call("/device/bind", "deviceId=HEAD-1")["code"] == .number(200))
            #expect(try await owner.call("/device/bind", "deviceId=HEAD-1")["code"] == .number(200), "again, same phone: success")
            #expect(try await other.call("/device/bind", "deviceId=HEAD-1")["code"] == .number(1301))
            #expect(try await other.call("/device/unbind", "deviceId=HEAD-1")["code"] == .number(1302))
            #expect(try await other.call("/live/start", "deviceId=HEAD-1")["code"] == .number(1302))
            #expect(try await owner.call("/live/start", "deviceId=HEAD-1&title=\(String(repeating: "t", count: 33))")["code"] == .number(400))
            let roomID = try #require(data(try await owner.call("/live/start", "deviceId=HEAD-1"))?["roomId"]?.int64)
            #expect(try await other.call("/live/stop", "roomId=\(roomID)")["code"] == .number(403))
            #expect(try await other.call("/intercom/start", "roomId=\(roomID)")["code"] == .number(403))
            #expect(try await owner.call("/live/stop", "roomId=424242")["code"] == .number(804))
            #expect(try await owner.call("/live/query", "roomId=424242")["code"] == .number(804))
            #expect(try await http.form("\(base)/live/stop", "roomId=\(roomID)")["code"] == .number(401))
            guard case .array(let devices)? = data(try await owner.call("/device/list"))?["list"] else { Issue.record("devices"); return }
            #expect(devices.first?["roomId"]?.int64 == roomID)

            // Unbinding ends the live room first.
            #expect(try await owner.call("/device/unbind", "deviceId=HEAD-1")["code"] == .number(200))
            #expect(try await owner.call("/live/stop", "roomId=\(roomID)")["code"] == .number(801))
            #expect(data(try await owner.call("/device/list"))?["total"] == .number(0))
            #expect(try await other.call("/device/bind", "deviceId=HEAD-1")["code"] == .number(200), "free again")
        }
    }

    /// #41: an unbind whose live room could not be dissolved used to unbind
    /// anyway (`try?`), leaving a live room bound to nobody; now the unbind
    /// fails with it, the device stays bound to its room, and a retry works.
    @Test func anUnbindWhoseDissolveFailsLeavesTheDeviceBoundToItsRoom() async throws {
        let fixture = try await Self.fixture("", clock: ManualClock())
        try await fixture.live { http in
            let base = "/t/\(fixture.id(0))/headset-live"
            let owner = try await Phone.login(http, base)
            let device = "HEAD-\(uniqueID().prefix(8))"
            #expect(try await owner.call("/device/bind", "deviceId=\(device)")["code"] == .number(200))
            let roomID = try #require(data(try await owner.call("/live/start", "deviceId=\(device)"))?["roomId"]?.int64)
            // This room's close fails in PostgreSQL, as it would in an outage.
            let refusal = "rk_test_refuse_close_\(roomID)"
            try await fixture.database.query("""
                CREATE FUNCTION \(unescaped: refusal)() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.room_id = \(unescaped: String(roomID)) AND NEW.state <> 'open' THEN RAISE EXCEPTION 'the test refuses this close'; END IF;
                    RETURN NEW;
                END $$
                """)
            try await fixture.database.query("CREATE TRIGGER \(unescaped: refusal) BEFORE UPDATE ON rooms FOR EACH ROW EXECUTE FUNCTION \(unescaped: refusal)()")
            let failed = try await owner.call("/device/unbind", "deviceId=\(device)")
            try await fixture.database.query("DROP TRIGGER \(unescaped: refusal) ON rooms")
            try await fixture.database.query("DROP FUNCTION \(unescaped: refusal)()")
            #expect(failed["code"] != .number(200), "the unbind is not answered as done: \(failed)")
            guard case .array(let devices)? = data(try await owner.call("/device/list"))?["list"] else { Issue.record("devices"); return }
            #expect(devices.first?["deviceId"]?.string == device && devices.first?["roomId"]?.int64 == roomID, "still bound to its live room: \(devices)")
            #expect(data(try await owner.call("/live/query", "roomId=\(roomID)")) != nil, "the room is still live")
            #expect(try await owner.call("/device/unbind", "deviceId=\(device)")["code"] == .number(200), "a retry unbinds")
            #expect(try await owner.call("/live/stop", "roomId=\(roomID)")["code"] == .number(801), "and the room is over")
        }
    }

    @Test func anUnsignedOrExpiredCallbackChangesNothing() async throws {
        let clock = ManualClock()
        let fixture = try await Self.fixture(VendorTables.tencent("http://127.0.0.1:9"), clock: clock)
        try await fixture.live { http in
            let base = "/t/\(fixture.id(0))/headset-live"
            let phone = try await Phone.login(http, base)
            _ = try await phone.call("/device/bind", "deviceId=GLASS-0002")
            let roomID = try #require(data(try await phone.call("/live/start", "deviceId=GLASS-0002"))?["roomId"]?.int64)
            let stream = try #require(try await fixture.database.query("SELECT stream FROM headset_rooms WHERE tenant_id = \(fixture.id(0)) AND room_id = \(roomID)").decode(String.self).first)
            let past = String(Int64(clock.now().timeIntervalSince1970) - 1)
            let expired = #"{"event_type":1,"stream_id":"\#(stream)","t":\#(past),"sign":"\#(Self.md5(VendorSecrets.callbackKey + past))"}"#
            #expect(try await http.request(.post, "/t/\(fixture.id(0))/callbacks/tencent", json: expired).status == .unauthorized)
            let unsigned = #"{"event_type":1,"stream_id":"\#(stream)","t":\#(Int64(clock.now().timeIntervalSince1970) + 60)}"#
            #expect(try await http.request(.post, "/t/\(fixture.id(0))/callbacks/tencent", json: unsigned).status == .unauthorized)
            #expect(data(try await phone.call("/live/query", "roomId=\(roomID)"))?["liveStatus"] == .number(0))
            clock.advance(by: 10 * 60 + 1)
            #expect(try await fixture.server().sweeper.sweepOnce() == 1, "still idle: it expires")
        }
    }
}
