import Foundation
import Logging
import RoomCore
import RoomTestSupport
import Testing

/// #29: a kick or ban reaches the vendor's chatroom too, through the outbox:
/// the fakes check each call's signature and exact parameters, count them
/// (once each), and hold what they were asked (members, blacklist, blocks).
@Suite struct VendorModerationTests {
    struct Room {
        let base: String
        let owner: String
        let id: Int64
    }

    static func room(_ http: HTTP, _ fixture: ServerFixture) async throws -> Room {
        let base = "/t/\(fixture.id(0))/audio-chatroom"
        let owner = try #require(try await http.form("\(base)/user/get", "")["data"])
        let sid = try #require(owner["sid"]?.string)
        let id = try #require(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Moderated")["data"]?["roomId"]?.int64)
        return Room(base: base, owner: try #require(owner["accid"]?.string), id: id)
    }

    static func admin(_ http: HTTP, _ fixture: ServerFixture, _ path: String, json: String = "{}") async throws -> HTTP.Answer {
        try await http.post("/admin/v1/tenants/\(fixture.id(0))\(path)", key: fixture.operatorKey, json: json)
    }

    @Test func netEaseGetsTheKickBlacklistMuteAndTheirLiftsOnceEachAfterAnOutageToo() async throws {
        let fake = FakeNetEase()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.netease(url, timeout: "1s"), clock: SystemClock())
            try await fixture.live { http in
                let room = try await Self.room(http, fixture)
                let chatroom = String(room.id)
                fake.enter("kim", chatroom)
                #expect(try await Self.admin(http, fixture, "/rooms/\(room.id)/members/kim/kick", json: #"{"durationSeconds":2}"#).status == .ok)
                #expect(try await eventually { !fake.isMember("kim", chatroom) }, "kicked out of the NetEase chatroom")
                let kick = try #require(fake.vendor.calls(to: "/chatroom/kickMember.action").first?.form)
                #expect(kick == ["roomid": chatroom, "accid": room.owner, "targetAccid": "kim"], "\(kick)")
                // A kick with a duration is a ban that ends: blacklisted now (NetEase's
                // blacklist has no end), readmitted when it ends, once.
                #expect(try await eventually { fake.isBlacklisted("kim", chatroom) }, "kept out of NetEase's chatroom for the kick's duration")
                // An expiry sweep (the server's runs hourly in this fixture) readmits it once the kick ends.
                let engine = try fixture.server().services.engine
                var scope = ExpirySweeper.Configuration()
                scope.tenants = [fixture.id(0)]
                let sweeper = ExpirySweeper(engine: engine, configuration: scope, logger: Logger(label: "sweep"))
                _ = try await sweeper.sweepOnce()
                #expect(try await engine.readmitDue(limit: 100, tenants: [fixture.id(0)]) == 0, "not before the kick ends")
                try await Task.sleep(for: .milliseconds(2_100))
                _ = try await sweeper.sweepOnce()
                #expect(try await engine.readmitDue(limit: 100, tenants: [fixture.id(0)]) == 0, "the sweep readmitted it, once")
                #expect(try await eventually { !fake.isBlacklisted("kim", chatroom) }, "readmitted when the kick ended")
                let readmit = try #require(fake.vendor.calls(to: "/chatroom/setMemberRole.action").last?.form)
                #expect(readmit == ["roomid": chatroom, "operator": room.owner, "target": "kim", "opt": "-1", "optvalue": "false"], "\(readmit)")

                // A ban until lifted, sent while NetEase is down: delivered once it is back.
                fake.enter("lee", chatroom)
                fake.vendor.mode = .unavailable
                let banned = try await Self.admin(http, fixture, "/rooms/\(room.id)/bans", json: #"{"account":"lee","reason":"abuse"}"#)
                #expect(banned.status == .created)
                try await Task.sleep(for: .milliseconds(600))
                #expect(fake.isMember("lee", chatroom), "not delivered while NetEase is down")
                fake.vendor.mode = .normal
                #expect(try await eventually(20) { fake.isBlacklisted("lee", chatroom) && !fake.isMember("lee", chatroom) })
                let role = try #require(fake.vendor.calls(to: "/chatroom/setMemberRole.action").last?.form)
                #expect(role == ["roomid": chatroom, "operator": room.owner, "target": "lee", "opt": "-1", "optvalue": "true"], "\(role)")

                let id = try #require(banned.json["id"]?.string)
                let lifted = try await http.request(.delete, "/admin/v1/tenants/\(fixture.id(0))/rooms/\(room.id)/bans/\(id)", key: fixture.operatorKey)
                #expect(lifted.status == .ok)
                #expect(try await eventually { !fake.isBlacklisted("lee", chatroom) }, "the lift reached NetEase")
                let lift = try #require(fake.vendor.calls(to: "/chatroom/setMemberRole.action").last?.form)
                #expect(lift["optvalue"] == "false" && lift["opt"] == "-1" && lift["target"] == "lee")
                try await Task.sleep(for: .seconds(1))
                #expect(fake.vendor.calls(to: "/chatroom/kickMember.action").count == 2, "once each")
                #expect(fake.vendor.calls(to: "/chatroom/setMemberRole.action").count == 4, "once each (kim's and lee's)")

                // A mute for 90 s is NetEase's temporary mute for two minutes (whole minutes, rounded up); a lift is 0.
                let muted = try await Self.admin(http, fixture, "/rooms/\(room.id)/mutes", json: #"{"account":"max","durationSeconds":90}"#)
                #expect(try await eventually { fake.mutedSeconds("max", chatroom) == 120 })
                let mute = try #require(fake.vendor.calls(to: "/chatroom/temporaryMute.action").first?.form)
                #expect(mute == ["roomid": chatroom, "operator": room.owner, "target": "max", "muteDuration": "120", "needNotify": "true"], "\(mute)")
                let muteID = try #require(muted.json["id"]?.string)
                #expect(try await http.request(.delete, "/admin/v1/tenants/\(fixture.id(0))/rooms/\(room.id)/mutes/\(muteID)", key: fixture.operatorKey).status == .ok)
                #expect(try await eventually { fake.mutedSeconds("max", chatroom) == nil }, "the unmute reached NetEase")
                #expect(fake.vendor.calls(to: "/chatroom/temporaryMute.action").map { $0.form["muteDuration"] } == ["120", "0"])
            }
        }
        #expect(fake.vendor.refused == 0, "every call was signed and shaped as NetEase wants")
    }

    @Test func rongCloudBlocksAndGagsForTheirMinutesAndLiftsBoth() async throws {
        let fake = FakeRongCloud()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.rongcloud(url, backup: url), clock: SystemClock())
            try await fixture.live { http in
                let room = try await Self.room(http, fixture)
                let chatroom = String(room.id)
                for accid in ["kim", "lee", "max"] { fake.enter(accid, chatroom) }
                #expect(try await Self.admin(http, fixture, "/rooms/\(room.id)/members/kim/kick").status == .ok)
                #expect(try await Self.admin(http, fixture, "/rooms/\(room.id)/members/lee/kick", json: #"{"durationSeconds":5400}"#).status == .ok)
                let banned = try await Self.admin(http, fixture, "/rooms/\(room.id)/bans", json: #"{"account":"max"}"#)
                #expect(try await eventually { fake.blockedMinutes("max", chatroom) != nil })
                #expect(fake.blockedMinutes("kim", chatroom) == 1, "a kick is RongCloud's shortest block")
                #expect(fake.blockedMinutes("lee", chatroom) == 90, "a 90-minute kick blocks 90 minutes")
                #expect(fake.blockedMinutes("max", chatroom) == 43_200, "a ban until lifted blocks for RongCloud's longest")
                #expect(!fake.isMember("kim", chatroom) && !fake.isMember("lee", chatroom) && !fake.isMember("max", chatroom))
                let block = try #require(fake.vendor.calls(to: "/chatroom/user/block/add.json").first { $0.form["userId"] == "lee" }?.form)
                #expect(block == ["chatroomId": chatroom, "userId": "lee", "minute": "90"])

                let id = try #require(banned.json["id"]?.string)
                #expect(try await http.request(.delete, "/admin/v1/tenants/\(fixture.id(0))/rooms/\(room.id)/bans/\(id)", key: fixture.operatorKey).status == .ok)
                #expect(try await eventually { fake.blockedMinutes("max", chatroom) == nil }, "the lift reached RongCloud")
                #expect(fake.vendor.calls(to: "/chatroom/user/block/rollback.json").map(\.form) == [["chatroomId": chatroom, "userId": "max"]])
                #expect(fake.vendor.calls(to: "/chatroom/user/block/add.json").count == 3, "once each")

                // A mute until lifted: RongCloud's longest gag, then its rollback.
                let muted = try await Self.admin(http, fixture, "/rooms/\(room.id)/mutes", json: #"{"account":"ned"}"#)
                #expect(try await eventually { fake.gaggedMinutes("ned", chatroom) == 43_200 })
                #expect(fake.vendor.calls(to: "/chatroom/user/gag/add.json").map(\.form) == [["chatroomId": chatroom, "userId": "ned", "minute": "43200"]])
                let muteID = try #require(muted.json["id"]?.string)
                #expect(try await http.request(.delete, "/admin/v1/tenants/\(fixture.id(0))/rooms/\(room.id)/mutes/\(muteID)", key: fixture.operatorKey).status == .ok)
                #expect(try await eventually { fake.gaggedMinutes("ned", chatroom) == nil })
                #expect(fake.vendor.calls(to: "/chatroom/user/gag/rollback.json").count == 1)
            }
        }
        #expect(fake.vendor.refused == 0)
    }
}
