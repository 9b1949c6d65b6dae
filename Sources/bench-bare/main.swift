import Foundation
import Hummingbird
import Logging
import PostgresNIO
import RoomCore

/// The reference ops/bench compares Roomkeeper's `/room/list` with: one
/// Hummingbird route running the same room-list queries through PostgresNIO
/// and encoding the same JSON, nothing else (no tenants, plugins, envelope
/// codec or IM provider).
struct RoomInfo: Encodable {
    let roomId: Int64
    let name: String
    let creator: String
    let thumbnail: String
    let onlineUserCount: Int
    let createTime: Int64
}

struct Listing: Encodable {
    let total: Int
    let list: [RoomInfo]
}

struct Answer: ResponseEncodable {
    let code: Int
    let data: Listing
}

let env = ProcessInfo.processInfo.environment
guard let url = env["DATABASE_URL"], let components = URLComponents(string: url), let host = components.host else {
    fatalError("DATABASE_URL is required")
}
var configuration = PostgresClient.Configuration(
    host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
    password: components.password ?? PgPass.password(host: host, port: components.port ?? 5432, database: String(components.path.dropFirst()),
                                                      user: components.user ?? "postgres"),
    database: String(components.path.dropFirst()), tls: .disable)
configuration.options.maximumConnections = Int(env["POOL_SIZE"] ?? "") ?? 20
let client = PostgresClient(configuration: configuration)
let tenant = env["BENCH_TENANT"] ?? "bench"

let router = Router()
router.post("t/:tenant/audio-chatroom/room/list") { _, _ -> Answer in
    let rows = try await client.query("""
        SELECT room_id, name, owner, attributes->>'thumbnail', created_at FROM rooms
        WHERE tenant_id = \(tenant) AND state = 'open' AND plugin_id = 'audio-chatroom'
        ORDER BY created_seq DESC LIMIT 20 OFFSET 0
        """)
    var list: [RoomInfo] = []
    for try await (id, name, owner, thumbnail, created) in rows.decode((Int64, String, String, String?, Date).self) {
        list.append(RoomInfo(roomId: id, name: name, creator: owner, thumbnail: thumbnail ?? "", onlineUserCount: 0,
                             createTime: Int64(created.timeIntervalSince1970 * 1000)))
    }
    var total = 0
    for try await count in try await client.query("""
        SELECT count(*)::int FROM rooms WHERE tenant_id = \(tenant) AND plugin_id = 'audio-chatroom' AND state = 'open'
        """).decode(Int.self) { total = count }
    return Answer(code: 200, data: Listing(total: total, list: list))
}
var logger = Logger(label: "bench-bare")
logger.logLevel = .warning
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: Int(env["PORT"] ?? "") ?? 8090)),
                      services: [client], logger: logger)
try await app.runService()
