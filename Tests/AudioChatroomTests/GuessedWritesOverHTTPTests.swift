import Foundation
import Hummingbird
import HummingbirdTesting
import RoomCore
import RoomServer
import RoomTestSupport
import Testing

/// #28, item 3, over real HTTP on two instances of one database: an
/// instance that has seen a session creates and dissolves on a guess its
/// statement checks, and what the other instance did meanwhile (a
/// revocation, a room opened there) is what the answer and the rows follow.
@Suite struct GuessedWritesOverHTTPTests {
    static func openRooms(_ fixture: AudioChatroomFixture, of accid: String) async throws -> [Int64] {
        try await fixture.server.database.query("""
            SELECT room_id FROM rooms WHERE tenant_id = \(fixture.server.id(0)) AND owner = \(accid) AND state = 'open' ORDER BY room_id
            """).decode(Int64.self)
    }

    @Test func whatAnotherInstanceDidDecidesAGuessedCreate() async throws {
        let fixture = try await AudioChatroomFixture(clock: SystemClock())
        let (first, second) = (try fixture.server.server(), try fixture.server.server())
        try await RoomListCacheTests.live(first) { here in
            try await RoomListCacheTests.live(second) { there in
                let base = fixture.base()
                let login = try #require(data(try await here.form("\(base)/user/get", "")))
                let sid = try #require(login["sid"]?.string), accid = try #require(login["accid"]?.string)
                // This instance sees the session live: a create and its dissolve.
                let mine = try #require(data(try await here.form("\(base)/room/create", "sid=\(sid)&roomName=First"))?["roomId"]?.int64)
                _ = try #require(data(try await here.form("\(base)/room/dissolve", "sid=\(sid)&roomId=\(mine)")))

                // A room opened on the other instance: the create here dissolves it first.
                let elsewhere = try #require(data(try await there.form("\(base)/room/create", "sid=\(sid)&roomName=There"))?["roomId"]?.int64)
                let replacing = try #require(data(try await here.form("\(base)/room/create", "sid=\(sid)&roomName=Here"))?["roomId"]?.int64)
                #expect(try await Self.openRooms(fixture, of: accid) == [replacing], "one open room a creator, the other's dissolved")
                #expect(elsewhere != replacing)

                // The session revoked through the other instance: refused here, nothing written.
                let revoked = try await there.post("/admin/v1/tenants/\(fixture.server.id(0))/accounts/\(accid)/sessions/revoke", key: fixture.server.key(0))
                #expect(revoked.status == .ok)
                let refused = try await here.form("\(base)/room/create", "sid=\(sid)&roomName=Late")
                #expect(refused["code"]?.int64 == 401, "\(refused)")
                let dissolve = try await here.form("\(base)/room/dissolve", "sid=\(sid)&roomId=\(replacing)")
                #expect(dissolve["code"]?.int64 == 401, "\(dissolve)")
                #expect(try await Self.openRooms(fixture, of: accid) == [replacing], "nothing created or closed")
            }
        }
    }
}
