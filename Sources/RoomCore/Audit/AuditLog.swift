import Foundation
import Logging
import PostgresNIO

/// The audit trail (#29; schema/core/0017_audit_log.sql): one row per
/// privileged act, appended on the act's own transaction so an act that
/// fails leaves none. The table refuses UPDATE, TRUNCATE, and DELETE of a
/// row before its `keep_until`, whoever asks.
public struct AuditLog: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    static let columns = "audit_id, tenant_id, at, actor, key_fingerprint, action, target, outcome, request_id, client_address, detail::text"

    /// Appends `act`, done by `actor`, on the caller's transaction. Who the
    /// admin behind `.admin` is comes from the request (`AuditCaller.current`).
    static func append(_ act: AuditAct, by actor: Actor, keep: TimeInterval, now: Date,
                       on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("\(auditInsert: AuditRow(act, by: actor, keep: keep, now: now))", logger: logger)
    }

    /// Appends `act` if the act is audited (`stamp` given), on the act's transaction.
    static func append(_ act: @autoclosure () -> AuditAct, _ stamp: AuditStamp?, now: Date,
                       on connection: PostgresConnection, logger: Logger) async throws {
        guard let stamp else { return }
        try await append(act(), by: stamp.actor, keep: stamp.keep, now: now, on: connection, logger: logger)
    }

    /// An act whose only write is its audit row (a tenant reload).
    public func append(_ act: AuditAct, by actor: Actor, keep: TimeInterval, now: Date) async throws {
        try await database.transaction { connection in
            try await Self.append(act, by: actor, keep: keep, now: now, on: connection, logger: database.logger)
        }
    }

    public struct Filter: Sendable {
        public enum Tenants: Sendable, Equatable {
            /// One tenant's rows (a tenant admin sees no others).
            case only(TenantID)
            /// Every row, the operator's own acts too.
            case all
        }

        public var tenants: Tenants
        public var action: String?
        /// An actor ("operator", "account:alice") or a key fingerprint.
        public var actor: String?
        /// Oldest first after this id (and before `before`, if given);
        /// without it, newest first before `before`.
        public var after: Int64?
        public var before: Int64?
        public var limit: Int

        public init(tenants: Tenants, action: String? = nil, actor: String? = nil, after: Int64? = nil, before: Int64? = nil, limit: Int) {
            self.tenants = tenants
            self.action = action
            self.actor = actor
            self.after = after
            self.before = before
            self.limit = limit
        }
    }

    /// With `after`: oldest first, following the log; otherwise newest first.
    /// One statement per scope and direction, so each walks its index
    /// (`audit_log_by_tenant`, or the primary key) instead of sorting the log.
    ///
    /// Cells (#43): one tenant's rows are read in its cell; every row, in
    /// every cell, merged by id (each cell draws its ids from a range of its
    /// own, so the order is total and a cursor pages back through all of
    /// them). Before, the operator's view read the first cell only, and
    /// `?tenant=` a second cell's tenant found nothing.
    public func entries(_ filter: Filter) async throws -> [AuditEntry] {
        switch filter.tenants {
        case .only(let tenant):
            return try await LeaseOwner.$tenant.withValue(tenant) { try await entriesInCell(filter) }
        case .all:
            let read = try await database.inEachCell { try await entriesInCell(filter) }
            guard read.count > 1 else { return read.first ?? [] }
            let merged = read.joined().sorted { filter.after != nil ? $0.id < $1.id : $0.id > $1.id }
            return Array(merged.prefix(filter.limit))
        }
    }

    private func entriesInCell(_ filter: Filter) async throws -> [AuditEntry] {
        let action = filter.action, actor = filter.actor, limit = filter.limit
        let rows: [PostgresRow]
        switch (filter.tenants, filter.after) {
        case (.only(let tenantID), let after?):
            rows = try await database.query("""
                SELECT \(unescaped: Self.columns) FROM audit_log
                WHERE tenant_id = \(tenantID) AND audit_id > \(after) AND audit_id < \(filter.before ?? Int64.max)
                  AND (\(action)::text IS NULL OR action = \(action))
                  AND (\(actor)::text IS NULL OR actor = \(actor) OR key_fingerprint = \(actor))
                ORDER BY audit_id LIMIT \(limit)
                """)
        case (.only(let tenantID), nil):
            rows = try await database.query("""
                SELECT \(unescaped: Self.columns) FROM audit_log
                WHERE tenant_id = \(tenantID) AND audit_id < \(filter.before ?? Int64.max)
                  AND (\(action)::text IS NULL OR action = \(action))
                  AND (\(actor)::text IS NULL OR actor = \(actor) OR key_fingerprint = \(actor))
                ORDER BY audit_id DESC LIMIT \(limit)
                """)
        case (.all, let after?):
            rows = try await database.query("""
                -- cross-tenant: the operator's view reads every tenant's rows
                SELECT \(unescaped: Self.columns) FROM audit_log
                WHERE audit_id > \(after) AND audit_id < \(filter.before ?? Int64.max)
                  AND (\(action)::text IS NULL OR action = \(action))
                  AND (\(actor)::text IS NULL OR actor = \(actor) OR key_fingerprint = \(actor))
                ORDER BY audit_id LIMIT \(limit)
                """)
        case (.all, nil):
            rows = try await database.query("""
                -- cross-tenant: the operator's view reads every tenant's rows
                SELECT \(unescaped: Self.columns) FROM audit_log
                WHERE audit_id < \(filter.before ?? Int64.max)
                  AND (\(action)::text IS NULL OR action = \(action))
                  AND (\(actor)::text IS NULL OR actor = \(actor) OR key_fingerprint = \(actor))
                ORDER BY audit_id DESC LIMIT \(limit)
                """)
        }
        return try rows.decode((Int64, String?, Date, String, String?, String, String, String, String?, String?, String).self).map {
            AuditEntry(id: $0, tenantID: $1, at: $2, actor: $3, keyFingerprint: $4, action: $5, target: $6, outcome: $7,
                       requestID: $8, clientAddress: $9, detail: $10)
        }
    }
}

/// Asks a store's write to audit itself: by whom, kept how long.
public struct AuditStamp: Sendable {
    public var actor: Actor
    public var keep: TimeInterval

    public init(by actor: Actor, in tenant: Tenant) {
        self.actor = actor
        keep = tenant.retention.audit
    }
}
