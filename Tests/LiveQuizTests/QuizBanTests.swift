import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #29: a player banned from a game's room mid-game answers nothing: the
/// answer asks the engine's ban rule (`call.rooms.enter`) before it is judged.
@Suite struct QuizBanTests {
    @Test func aBannedPlayersAnswerIsRefusedAndCountsNothing() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let game = try await HostedGame.create(http, fixture.base())
            let player = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", "")))
            let sid = try #require(player["sid"]?.string), accid = try #require(player["accid"]?.string)
            _ = try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")
            _ = try await game.host("question/publish", "questionId=1&time=1")
            let banned = try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(game.roomID)/bans", key: fixture.server.operatorKey,
                                             json: #"{"account":"\#(accid)"}"#)
            #expect(banned.status == .created)
            let refused = try await http.form("\(fixture.base())/quiz/player/answer", "sid=\(sid)&roomId=\(game.roomID)&questionId=1&answer=1")
            #expect(refused["code"] == .number(403), "\(refused)")
            fixture.clock.advance(by: 21)  // the answer window closes: results may be read
            let counts = try #require(data(try await game.host("result/query", "questionId=1"))?["options"])
            #expect(counts == .array([["optionId": 0, "content": "上海", "selectCount": 0], ["optionId": 1, "content": "北京", "selectCount": 0],
                                      ["optionId": 2, "content": "广州", "selectCount": 0]]), "the refused answer counts nothing")
        }
    }

    /// #41: the room's name carried the host's device id: anyone who saw it
    /// could create the device's next game first and keep its host out.
    @Test func aGamesNameDoesNotGiveItsDeviceAway() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let device = "pc-" + uniqueID()
            let created = try #require(data(try await http.form("\(fixture.base())/quiz/host/create", "deviceId=\(device)&bonus=10")))
            let roomID = try #require(created["roomId"]?.int64)
            let room = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(roomID)", key: fixture.server.operatorKey)
            #expect(room.status == .ok && room.json["room"]?["name"]?.string?.hasPrefix("竞答") == true, "\(room.text)")
            #expect(!room.text.contains(device), "the device id is nowhere in the room as listed")
        }
    }
}
