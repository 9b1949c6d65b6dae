import Foundation
import OneToOneCall
import RoomCore
import RoomTestSupport
import Testing

/// A server with the call plugin on two tenants, and its guests.
struct CallFixture {
    let server: ServerFixture
    static let registry = PluginRegistry([AnyRoomPlugin(OneToOneCallPlugin())])

    init(table: String = "[plugins.one-to-one-call]\n", clock: any RoomClock = ManualClock()) async throws {
        server = try await ServerFixture(pluginTables: [table, table], registry: Self.registry, clock: clock, sweepInterval: .seconds(3_600))
    }

    func base(_ tenant: Int = 0) -> String { "/t/\(server.id(tenant))/one-to-one-call" }

    /// A guest: its accid, sid and IM token.
    func guest(_ http: HTTP) async throws -> Guest {
        let answer = try #require(data(try await http.form("\(base())/user/get", "")))
        return Guest(accid: try #require(answer["accid"]?.string), sid: try #require(answer["sid"]?.string), imToken: try #require(answer["imToken"]?.string))
    }

    /// A JSON request, as the call's apps send them.
    func call(_ http: HTTP, _ route: String, _ body: [String: JSONValue]) async throws -> JSONValue {
        try await http.request(.post, "\(base())\(route)", json: JSONValue.object(body).jsonText).json
    }

    /// The P2P notices the local IM holds for `account`, oldest first, once
    /// the dispatcher has delivered `count` of them (up to 5 s).
    func notices(to account: String, count: Int) async throws -> [JSONValue] {
        var found: [JSONValue] = []
        for _ in 0..<100 {
            found = try await server.database.query("""
                SELECT attach FROM im_notifications WHERE tenant_id = \(server.id(0)) AND to_accid = \(account) ORDER BY notification_id
                """).decode(String.self).compactMap(JSONValue.parse)
            if found.count >= count { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return found
    }
}

struct Guest {
    let accid: String
    let sid: String
    let imToken: String
}
