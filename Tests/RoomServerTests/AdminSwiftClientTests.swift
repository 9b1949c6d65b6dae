import Foundation
import OpenAPIRuntime
import RoomAdminClient
import RoomCore
import RoomTestSupport
import RoomkeeperBuild
import Testing

/// The typed Swift client generated from the contract (#44, clients/generate)
/// against a live server over HTTP on 127.0.0.1: what an operator's Swift
/// program does with it, every answer decoded by the generated types (a
/// contract that drifted from the server fails here, not in a user's app).
@Suite struct AdminSwiftClientTests {
    static func fixture() async throws -> ServerFixture {
        let tables = Build.plugins.ids.map { "[plugins.\($0)]\n" }.joined(separator: "\n")
        return try await ServerFixture(pluginTables: [tables, tables], registry: Build.plugins)
    }

    static func client(_ port: Int, key: String) throws -> Client {
        Client(url: try #require(URL(string: "http://127.0.0.1:\(port)")), key: key)
    }

    @Test func anOperatorsProgramCreatesKicksPagesAndReadsUsage() async throws {
        let fixture = try await Self.fixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let admin = try Self.client(try #require(http.client.port), key: fixture.key(0))

            let me = try await admin.whoAmI().ok.body.json
            #expect(me.tenant == tenant && Set(me.scopes) == Set(Components.Schemas.AdminScope.allCases), "a bootstrap key holds every scope: \(me)")

            let body = Components.Schemas.CreateAudioChatroomRoom(name: "made by the Swift client", owner: "alice", plugin: .audioChatroom, ttlSeconds: 600)
            let room = try await admin.createRoom(path: .init(tenant: tenant), body: .json(.CreateAudioChatroomRoom(body))).created.body.json
            #expect(room.plugin == "audio-chatroom" && room.owner == "alice" && room.state == .open && room.reservation == nil)
            #expect(try await admin.getRoom(path: .init(tenant: tenant, room: room.id)).ok.body.json.room.id == room.id)

            // A kick with a duration answers its ban; without one, `ban` is null
            // on the wire and nil here (the nullable reference clients/swift rewrites).
            let banned = try await admin.kickMember(path: .init(tenant: tenant, room: room.id, account: "mallory"),
                                                    body: .json(.init(durationSeconds: 600, reason: "spam"))).ok.body.json
            #expect(banned.ban?.account == "mallory" && banned.ban?.active == true && banned.ban?.room == room.id)
            let kicked = try await admin.kickMember(path: .init(tenant: tenant, room: room.id, account: "bob"), body: .json(.init())).ok.body.json
            #expect(kicked.account == "bob" && kicked.ban == nil)
            let bans = try await admin.listRoomBans(path: .init(tenant: tenant, room: room.id)).ok.body.json
            #expect(bans.items.map(\.account) == ["mallory"])

            // The feed, paged to its end with the cursor each page answers.
            var cursor: String?
            var types: [String] = []
            for _ in 0..<100 {
                let page = try await admin.listTenantEvents(path: .init(tenant: tenant), query: .init(after: cursor, limit: 2)).ok.body.json
                types += page.items.map(\._type)
                if page.items.isEmpty { break }
                cursor = page.nextCursor
            }
            #expect(types.contains("room.created") && types.contains("member.kicked"), "\(types)")

            let usage = try await admin.getTenantUsage(path: .init(tenant: tenant), query: .init(format: .csv)).ok.body
            guard case .csv(let csv) = usage else { Issue.record("usage answered \(usage), not CSV"); return }
            let text = try await String(collecting: csv, upTo: 1 << 20)
            #expect(text.hasPrefix("start,"), "\(text.prefix(200))")
        }
    }

    @Test func aKeyMadeByTheClientIsHeldToItsScopesUntilRevoked() async throws {
        let fixture = try await Self.fixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let port = try #require(http.client.port)
            let admin = try Self.client(port, key: fixture.key(0))
            let made = try await admin.createAdminKey(path: .init(tenant: tenant), body: .json(.init(label: "swift reader", scopes: [.read])))
                .created.body.json
            let key = try #require(made.key, "the key is answered once, when made")
            #expect(made.label == "swift reader" && made.scopes == [.read])

            let reader = try Self.client(port, key: key)
            let room = try await admin.createRoom(path: .init(tenant: tenant), body: .json(.CreateAudioChatroomRoom(
                .init(name: "Lobby", owner: "alice", plugin: .audioChatroom)))).created.body.json
            #expect(try await reader.listRooms(path: .init(tenant: tenant)).ok.body.json.items.map(\.id) == [room.id])
            let refused = try await reader.dissolveRoom(path: .init(tenant: tenant, room: room.id)).forbidden.body.applicationProblemJson
            #expect(refused.code == .forbidden && refused.detail.contains("rooms"), "403 naming the scope: \(refused)")
            // Another tenant's rooms are not this key's to read.
            let other = try await reader.listRooms(path: .init(tenant: fixture.id(1)))
            guard case .forbidden = other else { Issue.record("another tenant's rooms answered \(other)"); return }

            let listed = try await admin.listAdminKeys(path: .init(tenant: tenant)).ok.body.json.items
            #expect(listed.map(\.label) == ["swift reader"] && listed.allSatisfy { $0.key == nil }, "listed without the key itself")
            _ = try await admin.revokeAdminKey(path: .init(tenant: tenant, keyId: made.id)).ok.body.json
            let afterRevoke = try await reader.listRooms(path: .init(tenant: tenant))
            guard case .unauthorized(let problem) = afterRevoke else { Issue.record("a revoked key answered \(afterRevoke)"); return }
            #expect(try problem.body.applicationProblemJson.code == .unauthorized)
        }
    }
}
