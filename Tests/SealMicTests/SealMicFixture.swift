import Foundation
import HTTPTypes
import RoomCore
import RoomProviders
import RoomTestSupport
import SealMic
import Testing

/// A live server with sealmic enabled for two tenants.
struct SealMicFixture {
    let server: ServerFixture
    static let registry = PluginRegistry([AnyRoomPlugin(SealMicPlugin())])

    init(table: String = "[plugins.sealmic]\n", clock: any RoomClock = ManualClock(), sweepInterval: Duration = .milliseconds(200)) async throws {
        server = try await ServerFixture(pluginTables: [table, table], registry: Self.registry, clock: clock, sweepInterval: sweepInterval)
    }

    func base(_ tenant: Int = 0) -> String { "/t/\(server.id(tenant))/sealmic" }
    var local: LocalIMProvider { server.tenants[0].imAdapter(LocalIMProvider.self)! }
}

/// A logged-in SealMic user.
struct SealMicUser: Sendable {
    let userId: String
    let token: String
    let imToken: String
}

/// Calls SealMic routes as the shipped apps do: JSON bodies, `Authorization: <token>`.
struct SealMicClient: Sendable {
    let http: HTTP
    let base: String

    func call(_ path: String, _ body: [String: JSONValue] = [:], as token: String?, method: HTTPRequest.Method = .post) async throws -> JSONValue {
        var headers = HTTPFields()
        if let token { headers[.authorization] = token }
        if method == .get {
            let query = body.map { "\($0.key)=\($0.value.parameterText)" }.joined(separator: "&")
            return try await http.request(.get, "\(base)\(path)?\(query)", headers: headers).json
        }
        return try await http.request(method, "\(base)\(path)", json: JSONValue.object(body).jsonText, headers: headers).json
    }

    func login() async throws -> SealMicUser {
        let answer = try await call("/user/login", ["deviceId": .string(UUID().uuidString)], as: nil)
        let result = try #require(answer["data"]?["result"], "login: \(answer)")
        return SealMicUser(userId: try #require(result["userId"]?.string), token: try #require(result["authorization"]?.string),
                           imToken: try #require(result["imToken"]?.string))
    }

    /// Creates a room; returns its id as the clients know it (also its IM chatroom's).
    func createRoom(_ host: SealMicUser, subject: String = "Evening") async throws -> String {
        let answer = try await call("/room/create", ["subject": .string(subject), "roomType": .number(1)], as: host.token)
        return try #require(answer["data"]?["result"]?["roomId"]?.string, "create: \(answer)")
    }
}

/// The `result` of a success, or nil.
func result(_ answer: JSONValue) -> JSONValue? {
    answer["errCode"] == .number(0) ? answer["data"]?["result"] : nil
}

func errCode(_ answer: JSONValue) -> Int64? { answer["errCode"]?.int64 }

/// A local-IM WebSocket member of one chatroom, reading the SM:* messages.
struct ChatroomMember {
    let client: IMTestClient
    let chatroom: String

    static func enter(_ user: SealMicUser, _ chatroom: String, fixture: SealMicFixture, port: Int, tenant: Int = 0) async throws -> ChatroomMember {
        let client = IMTestClient(port: port, tenant: fixture.server.id(tenant), accid: user.userId, token: user.imToken)
        client.send(#"{"type":"enter","chatroom":"\#(chatroom)"}"#)
        _ = try await client.next("entered")
        return ChatroomMember(client: client, chatroom: chatroom)
    }

    /// The next chatroom message of `type`, its body parsed; other frames are skipped.
    func next(_ type: String) async throws -> JSONValue {
        for _ in 0..<50 {
            let message = try await client.next("message")
            if message["msgType"]?.string == type { return JSONValue.parse(message["body"]?.string ?? "") ?? .null }
        }
        throw Missing(type: type)
    }

    struct Missing: Error { let type: String }
}

extension JSONValue {
    /// `micPositions` as (position, state, uid) triples.
    var positions: [(Int64, Int64, String?)] {
        guard case .array(let items)? = self["micPositions"] else { return [] }
        return items.map { ($0["position"]?.int64 ?? -1, $0["state"]?.int64 ?? -1, $0["uid"]?.string ?? $0["userId"]?.string) }
    }
}
