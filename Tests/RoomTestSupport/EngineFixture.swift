import Foundation
import Logging
import RoomCore
import RoomProviders

/// An engine on the test database with tenants of its own and a clock the
/// test moves.
public struct EngineFixture: Sendable {
    public let database: Database
    public let clock: ManualClock
    public let tenants: TestTenants
    public let engine: RoomEngine
    public let logger: Logger

    public init(tenantCount: Int = 1, pluginTable: String = "[plugins.test-rooms]\n") async throws {
        database = try await TestDatabase.shared()
        clock = ManualClock(Date(timeIntervalSince1970: 1_900_000_000 + Double(Int.random(in: 0...1_000_000))))
        tenants = try TestTenants(count: tenantCount, pluginTable: pluginTable, database: database, clock: clock)
        let directory = tenants.directory
        engine = RoomEngine(database: database, clock: clock, registry: TestTenants.registry, tenants: { directory[$0] })
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        self.logger = logger
    }

    public var tenant: Tenant { tenants[0] }

    public func local(_ tenant: Tenant? = nil) -> LocalIMProvider {
        (tenant ?? self.tenant).imAdapter(LocalIMProvider.self)!
    }

    /// A room of the test plugin with an IM chatroom, as its create route makes it.
    public func room(owner: AccountID = "owner", capacity: Int? = nil, ttl: Int? = nil, in tenant: Tenant? = nil) async throws -> Room {
        let tenant = tenant ?? self.tenant
        return try await engine.create(
            NewRoom(pluginID: TestRoomsPlugin.pluginID, name: "room", owner: owner, ttlSeconds: ttl, capacity: capacity),
            in: tenant, by: .account(owner))
    }

    /// Queues the chatroom message the test plugin's join sends, as a write
    /// that cannot apply it in its statement does (a vendor's IM, or entries
    /// waiting before it): the dispatcher's tests need entries in a room's IM
    /// lane, and a local tenant's joins no longer leave one (#41).
    public func queueJoinMessage(_ room: Room, from account: AccountID, in tenant: Tenant? = nil) async throws {
        let tenant = tenant ?? self.tenant
        let chatroom = try room.imChatroomID ?? { throw RoomError.invalid(field: "room", reason: "has no IM chatroom") }()
        let message = OutboxMessage.im(.chatroomMessage(chatroom: chatroom, from: account, type: "100", body: #"{"joined":"\#(account)"}"#, persist: false),
                                       roomID: room.id)
        let now = clock.now()
        _ = try await database.transaction { connection in
            try await OutboxStore.enqueue([message], tenantID: tenant.id, webhooks: [], now: now, on: connection, logger: logger)
        }
    }

    public var sweeperConfiguration: ExpirySweeper.Configuration {
        var configuration = ExpirySweeper.Configuration()
        configuration.tenants = tenants.ids
        return configuration
    }

    public func dispatcher(_ deliverer: any OutboxDeliverer, maxAttempts: Int = 8) -> OutboxDispatcher {
        var configuration = OutboxDispatcher.Configuration()
        configuration.tenants = tenants.ids
        configuration.maxAttempts = maxAttempts
        configuration.deliveryTimeout = 30
        return OutboxDispatcher(store: OutboxStore(database: database), deliverer: deliverer, clock: clock, configuration: configuration, logger: logger)
    }

    /// How a room's local chatroom was closed: close entries queued in the
    /// outbox, and `closed` events written by a close's own statement
    /// (#28: the chatroom closes with the room when nothing waits before it).
    public struct ChatroomCloses: Equatable, Sendable {
        public let queued: Int
        public let closedInStatement: Int

        public init(queued: Int, closedInStatement: Int) {
            self.queued = queued
            self.closedInStatement = closedInStatement
        }
    }

    public func chatroomCloses(_ roomID: RoomID) async throws -> ChatroomCloses {
        let queued = try await count("SELECT count(*)::int FROM outbox WHERE tenant_id = ANY($1) AND room_id = \(roomID) AND payload ? 'closeChatroom'")
        let events = try await count("SELECT count(*)::int FROM im_events WHERE tenant_id = ANY($1) AND chatroom_id = '\(roomID)' AND kind = 'closed'")
        // A queued close the dispatcher delivered wrote its event too.
        let delivered = try await count("""
            SELECT count(*)::int FROM outbox WHERE tenant_id = ANY($1) AND room_id = \(roomID) AND payload ? 'closeChatroom' AND status = 'delivered'
            """)
        return ChatroomCloses(queued: queued, closedInStatement: events - delivered)
    }

    /// One value from a query scoped by the test's tenants.
    public func count(_ sql: String) async throws -> Int {
        let rows = try await database.query(PostgresQueryBuilder.count(sql, tenants: tenants.ids))
        for value in try rows.decode(Int.self) { return value }
        return 0
    }
}

import PostgresNIO

enum PostgresQueryBuilder {
    /// `sql` uses `$1` for the tenant id array.
    static func count(_ sql: String, tenants: [TenantID]) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(tenants)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
