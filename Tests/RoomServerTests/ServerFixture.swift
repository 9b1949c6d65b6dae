import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PluginConformance
import RoomCore
import RoomServer
import RoomTestSupport

/// A server on the test database with tenants of its own, run live on 127.0.0.1.
struct ServerFixture: Sendable {
    let database: Database
    let clock: any RoomClock
    let tenants: TestTenants
    let operatorKey = "operator-" + Secrets.randomToken(bytes: 8)
    let sweepInterval: Duration

    init(pluginTables: [String] = ["[plugins.test-rooms]\n", "[plugins.test-rooms]\n"], clock: any RoomClock = ManualClock(), sweepInterval: Duration = .seconds(1)) async throws {
        database = try await TestDatabase.shared()
        self.clock = clock
        self.sweepInterval = sweepInterval
        tenants = try TestTenants(pluginTables: pluginTables, database: database, clock: clock)
    }

    /// A new server instance each time, as after a restart.
    func server() -> Roomkeeper {
        var options = ServerOptions()
        options.port = 0
        options.operatorKey = operatorKey
        options.sweeper.tenants = tenants.ids
        options.sweeper.interval = sweepInterval
        options.dispatcher.tenants = tenants.ids
        var logger = Logger(label: "server-test")
        logger.logLevel = .warning
        return Roomkeeper(database: database, registry: TestTenants.registry, tenants: tenants.directory, clock: clock, options: options, logger: logger)
    }

    func live<T: Sendable>(_ body: @Sendable (HTTP) async throws -> T) async throws -> T {
        try await server().buildApplication().test(.live) { client in try await body(HTTP(client: client)) }
    }

    func id(_ index: Int) -> TenantID { tenants.ids[index] }
    func key(_ index: Int) -> String { "\(tenants.ids[index])-key" }
}

/// Requests and their answers as JSON.
struct HTTP: Sendable {
    let client: any TestClientProtocol

    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let text: String
        var json: JSONValue { JSONValue.parse(text) ?? .null }
    }

    func request(_ method: HTTPRequest.Method, _ path: String, key: String? = nil, json: String? = nil, form: String? = nil, contentType: String? = nil) async throws -> Answer {
        var headers = HTTPFields()
        if let key { headers[.authorization] = "Bearer \(key)" }
        if json != nil { headers[.contentType] = "application/json" }
        if form != nil { headers[.contentType] = contentType ?? "application/x-www-form-urlencoded;charset=utf-8" }
        let body = (json ?? form).map { ByteBuffer(string: $0) }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        return Answer(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    func get(_ path: String, key: String? = nil) async throws -> Answer {
        try await request(.get, path, key: key)
    }

    func post(_ path: String, key: String? = nil, json: String? = nil) async throws -> Answer {
        try await request(.post, path, key: key, json: json)
    }
}
