import Foundation
import Logging
import PostgresNIO
import Synchronization

/// What one room write changed, recorded by the writes themselves as they
/// are made (#42): `RoomEngine.commit` runs the one epilogue from it once
/// the write has committed, and only then.
///
/// Why: 16 ways of writing rooms each remembered (or not) to run the
/// epilogue; a plugin's `mutate` changed SealMic's listed `bgId` and the
/// instance that made the change listed the old one until PostgreSQL's
/// notification came back. Now a write that changes what a list shows
/// cannot be made without the list being forgotten: `RoomWrites` and
/// `RoomStatement`, the only ways to send a room's SQL, exist only inside
/// a commit, and each of their writes touches the ledger.
final class RoomLedger: Sendable {
    private struct Entries {
        var counted: [RoomCommitted] = []
        /// Rooms whose listed columns changed (name, counts, state, expiry,
        /// reservation, attributes): their lists are forgotten.
        var listed: [Room] = []
        /// Rooms whose version moved: a guess from it would only miss.
        var moved: [Room] = []
    }

    private let entries = Mutex(Entries())

    /// A transition (`created`, `joined`, `closed` as dissolved…) of
    /// `rooms`, counted in `roomkeeper_room_transitions_total`; their lists
    /// are forgotten.
    func record(_ transition: RoomTransition, _ rooms: [Room]) {
        guard !rooms.isEmpty else { return }
        entries.withLock { $0.counted.append(RoomCommitted(transition, rooms)) }
    }

    /// `rooms` were written: `listed` when a list shows what changed.
    func touch(_ rooms: [Room], listed: Bool) {
        // A listed room's epilogue forgets its recent version as well.
        entries.withLock { entries in
            if listed { entries.listed += rooms } else { entries.moved += rooms }
        }
    }

    /// Everything recorded, as the epilogue takes it.
    fileprivate var changes: [RoomCommitted] {
        entries.withLock { entries in
            entries.counted + [RoomCommitted(nil, entries.listed), RoomCommitted(nil, entries.moved, listed: false)]
        }
    }
}

/// The SQL of each room write, on the engine's open transaction (its
/// methods are in RoomWrites.swift). Only `RoomEngine.commit` makes one.
struct RoomWrites {
    let connection: PostgresConnection
    let logger: Logger
    let ledger: RoomLedger
    /// Each tenant's webhook endpoints: the engine's events reach them
    /// through the outbox, in the transaction that writes the event.
    let webhooks: @Sendable (TenantID) -> [WebhookEndpoint]
    /// How long each tenant keeps its audit rows (`[retention] audit`).
    let auditRetention: @Sendable (TenantID) -> TimeInterval

    fileprivate init(connection: PostgresConnection, logger: Logger, ledger: RoomLedger, webhooks: @escaping @Sendable (TenantID) -> [WebhookEndpoint],
                     auditRetention: @escaping @Sendable (TenantID) -> TimeInterval) {
        self.connection = connection
        self.logger = logger
        self.ledger = ledger
        self.webhooks = webhooks
        self.auditRetention = auditRetention
    }
}

/// A room write that is one statement without a transaction (a change, a
/// kick, a dissolve, a create decided on one read): sent as `Database.query`
/// sends it (its commit confirmed). Only `RoomEngine.commitStatement` makes one.
struct RoomStatement {
    let ledger: RoomLedger
    private let database: Database

    fileprivate init(database: Database, ledger: RoomLedger) {
        self.database = database
        self.ledger = ledger
    }

    /// Runs the statement, which writes `rooms`; `listed`: a list shows what it changes.
    func run(_ query: PostgresQuery, writing rooms: [Room], listed: Bool) async throws -> [PostgresRow] {
        let rows = try await database.query(query)
        ledger.touch(rooms, listed: listed)
        return rows
    }
}

extension RoomEngine {
    /// How a commit's transaction is opened.
    enum CommitPath {
        /// Behind the room's other writers of this instance (`RoomWriteQueue`).
        case queued(RoomWriteQueue.Key)
        /// A transaction of its own (a sweep's batch, a ban, a create).
        case transaction
    }

    /// The one way a transaction writes rooms: `body` gets the room SQL on
    /// it, and once it has committed, the epilogue runs from what the writes
    /// recorded (`committed`). A body that throws commits nothing and runs no epilogue.
    func commit<Result: Sendable>(_ path: CommitPath, _ body: (RoomWrites) async throws -> Result) async throws -> Result {
        let ledger = RoomLedger()
        func run(_ connection: PostgresConnection) async throws -> Result {
            try await body(RoomWrites(connection: connection, logger: database.logger, ledger: ledger,
                                      webhooks: { [tenants] in tenants($0)?.webhooks ?? [] },
                                      auditRetention: { [tenants] in tenants($0)?.retention.audit ?? RetentionPolicy().audit }))
        }
        let result: Result = try await StatementTally.$inRoomCommit.withValue(true) {
            switch path {
            case .queued(let key): try await writeQueue.run(key, on: database, run)
            case .transaction: try await database.transaction(run)
            }
        }
        committed(ledger.changes)
        return result
    }

    /// The one way a single statement writes rooms without a transaction,
    /// with the same epilogue as `commit`.
    func commitStatement<Result: Sendable>(_ body: (RoomStatement) async throws -> Result) async throws -> Result {
        let ledger = RoomLedger()
        // Each statement commits by itself: what one wrote before the body
        // threw is committed, and forgotten as any other.
        defer { committed(ledger.changes) }
        return try await StatementTally.$inRoomCommit.withValue(true) {
            try await body(RoomStatement(database: database, ledger: ledger))
        }
    }
}

extension RoomEngine {
    /// After a commit: every list the write touched and every room it
    /// changed (`RecentRooms`) are forgotten on this instance (the others hear the rooms trigger's NOTIFY), and each
    /// transition is counted under one label scheme, `kind` the event kind
    /// (`reason` a close's) and `plugin` the room's own plugin (the
    /// caller's, "admin" and "sweeper" were mixed in before).
    fileprivate func committed(_ changes: [RoomCommitted]) {
        var lists = Set<RoomListCache.Key>()
        for change in changes where !change.rooms.isEmpty {
            if let transition = change.transition {
                for (plugin, rooms) in Dictionary(grouping: change.rooms, by: \.pluginID) {
                    Self.transitions.increment(transition, plugin: plugin, by: rooms.count)
                }
            }
            guard change.listed else { continue }
            lists.formUnion(change.rooms.map { RoomListCache.Key(tenantID: $0.tenantID, pluginID: $0.pluginID) })
        }
        for list in lists { listCache.forget(list.tenantID, list.pluginID) }
        // Their versions moved: a dissolve guessing from them would only miss.
        for change in changes { recentRooms.forget(change.rooms) }
    }
}
