import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import RoomCore
import RoomProviders
import RoomServer

/// A server on the test database with tenants of its own, run live on 127.0.0.1.
public struct ServerFixture: Sendable {
    public let database: Database
    public let clock: any RoomClock
    public let tenants: TestTenants
    public let registry: PluginRegistry
    public let operatorKey = "operator-" + Secrets.randomToken(bytes: 8)
    let sweepInterval: Duration

    public init(
        pluginTables: [String] = ["[plugins.test-rooms]\n", "[plugins.test-rooms]\n"], registry: PluginRegistry = TestTenants.registry,
        clock: any RoomClock = ManualClock(), sweepInterval: Duration = .seconds(1)
    ) async throws {
        database = try await TestDatabase.shared()
        self.clock = clock
        self.registry = registry
        self.sweepInterval = sweepInterval
        tenants = try TestTenants(pluginTables: pluginTables, database: database, clock: clock, registry: registry)
    }

    /// A new server instance each time, as after a restart.
    /// `ownTenants`: the instance loads the tenant files itself, as another
    /// process would, instead of sharing this fixture's directory object.
    /// `database`: another database than the fixture's (one that is down, say).
    public func server(_ configure: (inout ServerOptions) -> Void = { _ in }, ownTenants: Bool = false, database other: Database? = nil) throws -> Roomkeeper {
        var options = ServerOptions()
        options.port = 0
        options.operatorKey = operatorKey
        options.sweeper.tenants = tenants.ids
        options.sweeper.interval = sweepInterval
        options.dispatcher.tenants = tenants.ids
        // Test receivers listen on loopback, which an operator must allow.
        options.webhookAddresses = TestTenants.loopbackWebhooks
        configure(&options)
        var logger = Logger(label: "server-test")
        logger.logLevel = .warning
        let directory = ownTenants
            ? try TenantDirectory(path: tenants.path, loader: TenantLoader(registry: registry, providers: StandardProviderCatalog(database: other ?? database, clock: clock),
                                                                           environment: TestTenants.environment))
            : tenants.directory
        return Roomkeeper(database: other ?? database, registry: registry, tenants: directory, clock: clock, options: options, logger: logger)
    }

    /// Runs `body` against a live server on 127.0.0.1. A stage that hangs
    /// (start, the test, shutdown) fails the test after 60 s, naming the stage.
    /// `seconds`: longer for a test that is long by design (a sweep of
    /// thousands of requests), not for one that is slow.
    public func live<T: Sendable>(
        options configure: (inout ServerOptions) -> Void = { _ in }, ownTenants: Bool = false, database other: Database? = nil,
        seconds: Double = 60, _ body: @escaping @Sendable (HTTP) async throws -> T
    ) async throws -> T {
        let stages = StageLog()
        let app = try server(configure, ownTenants: ownTenants, database: other).buildApplication()
        return try await withDeadline(seconds, { stages.current }) {
            let value = try await app.test(.live) { client in
                stages.enter("running the test body")
                let value = try await body(HTTP(client: client))
                stages.enter("shutting the server down")
                return value
            }
            return value
        }
    }

    public func id(_ index: Int) -> TenantID { tenants.ids[index] }
    public func key(_ index: Int) -> String { "\(tenants.ids[index])-key" }
}

/// Requests and their answers as JSON.
public struct HTTP: Sendable {
    public let client: any TestClientProtocol

    public init(client: any TestClientProtocol) {
        self.client = client
    }

    public struct Answer: Sendable {
        public let status: HTTPResponse.Status
        public let headers: HTTPFields
        public let text: String
        public var json: JSONValue { JSONValue.parse(text) ?? .null }
    }

    public func request(
        _ method: HTTPRequest.Method, _ path: String, key: String? = nil, json: String? = nil, form: String? = nil, contentType: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> Answer {
        var headers = extra
        if let key { headers[.authorization] = "Bearer \(key)" }
        if json != nil { headers[.contentType] = "application/json" }
        if form != nil { headers[.contentType] = contentType ?? "application/x-www-form-urlencoded;charset=utf-8" }
        let body = (json ?? form).map { ByteBuffer(string: $0) }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        return Answer(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    /// POSTs a form body exactly as given, as the shipped NetEase-style apps do; the answer as JSON.
    public func form(_ path: String, _ body: String) async throws -> JSONValue {
        try await request(.post, path, form: body).json
    }

    public func get(_ path: String, key: String? = nil) async throws -> Answer {
        try await request(.get, path, key: key)
    }

    public func post(_ path: String, key: String? = nil, json: String? = nil) async throws -> Answer {
        try await request(.post, path, key: key, json: json)
    }
}


/// The `data` of a NetEase-style success (`code` 200), or nil.
public func data(_ answer: JSONValue) -> JSONValue? {
    answer["code"]?.int64 == 200 ? answer["data"] : nil
}
