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

    /// Follows every tenant's log across cells (#43) from `cursor`: a
    /// position per cell's id range, each range read after its own
    /// position, oldest first, in every cell (a moved tenant's rows keep
    /// the ids its first cell drew, and once the move has deleted them
    /// there, its new cell holds the only copy), each row once (mid-move,
    /// both cells hold it), and the page takes the lowest ids of all. The
    /// next cursor moves each range's position past what the page returned
    /// of it, so a row new in an earlier range is found after a later
    /// range's were read (one cursor id hid it before: ids order the cells
    /// one after another, not in time).
    ///
    /// Why every cell for every range: read only in the cell whose range
    /// it is, a row of a moved tenant that the follower had not yet read
    /// when the move deleted it from its first cell was never returned
    /// (`CellsTests.theOperatorFollowsTheAuditLogOfEveryCell`).
    public func follow(_ filter: Filter, from cursor: AuditFollowCursor) async throws -> (entries: [AuditEntry], next: AuditFollowCursor) {
        // A position past the deployment's cells is not read (the contract
        // allows 16; a cell is never removed, so none names a row still kept).
        let cellCount = database.cells?.names.count ?? 1
        var positions: [Int64] = []
        for index in 0..<cellCount {
            positions.append(try await position(of: index, from: cursor))
        }
        // Each cell's ranges (its own, then the blocks it claimed: `IDBlocks`)
        // from the one its position is in; each range read after the
        // position, before its end.
        var afters: [Int64] = [], befores: [Int64] = []
        for index in 0..<cellCount {
            for range in ranges(of: index) where range.upperBound - 1 > positions[index] {
                afters.append(max(positions[index], range.lowerBound - 1))
                befores.append(min(filter.before ?? Int64.max, range.upperBound))
            }
        }
        var found: [Int64: AuditEntry] = [:]
        for index in 0..<cellCount {
            let read = try await LeaseOwner.$cell.withValue(cellName(index)) { try await entries(after: afters, before: befores, filter) }
            for entry in read { found[entry.id] = entry }
        }
        let page = Array(found.values.sorted { $0.id < $1.id }.prefix(filter.limit))
        var next = positions
        for entry in page {
            if let cell = cellIndex(of: entry.id), cell < next.count { next[cell] = max(next[cell], entry.id) }
        }
        return (page, AuditFollowCursor(positions: next))
    }

    /// The ids cell `index` draws or has drawn, oldest first.
    private func ranges(of index: Int) -> [Range<Int64>] {
        database.cells?.idRanges(ofCell: index) ?? [Cells.idRange(index: index)]
    }

    /// The cell (by index) whose sequences drew `id`.
    private func cellIndex(of id: Int64) -> Int? {
        if let cells = database.cells { return cells.cellIndex(ofID: id) }
        return IDBlocks.block(of: id) == nil ? Int(id >> 48) : nil
    }

    /// This cell's rows after each range's position and before its end,
    /// oldest first: one index walk a range.
    private func entries(after positions: [Int64], before ends: [Int64], _ filter: Filter) async throws -> [AuditEntry] {
        let action = filter.action, actor = filter.actor, limit = filter.limit
        let tenant: TenantID? = if case .only(let tenant) = filter.tenants { tenant } else { nil }
        return try Self.decoded(try await database.query("""
            -- cross-tenant: the operator's view reads every tenant's rows (or the one its filter names)
            SELECT a.* FROM unnest(\(positions)::bigint[], \(ends)::bigint[]) AS r(after, before)
            CROSS JOIN LATERAL (
                SELECT \(unescaped: Self.columns) FROM audit_log
                WHERE audit_id > r.after AND audit_id < r.before
                  AND (\(tenant)::text IS NULL OR tenant_id = \(tenant))
                  AND (\(action)::text IS NULL OR action = \(action))
                  AND (\(actor)::text IS NULL OR actor = \(actor) OR key_fingerprint = \(actor))
                ORDER BY audit_id LIMIT \(limit)
            ) a
            ORDER BY a.audit_id LIMIT \(limit)
            """))
    }

    /// Cell `index`'s position: the cursor's, or, from a bare id (one
    /// position: a row's id, as the newest-first page shows it), the start
    /// of the cell's ranges when they all come after it, the bare id when
    /// one of them holds it, and otherwise the last row the cell's ranges
    /// hold now (the bare id came after it in id order).
    private func position(of index: Int, from cursor: AuditFollowCursor) async throws -> Int64 {
        let ranges = ranges(of: index)
        let start = ranges[0].lowerBound - 1
        guard cursor.positions.count == 1 else { return max(index < cursor.positions.count ? cursor.positions[index] : start, start) }
        let bare = cursor.positions[0]
        if bare <= start || ranges.contains(where: { $0.contains(bare) }) { return max(bare, start) }
        let lows = ranges.map(\.lowerBound), highs = ranges.map(\.upperBound)
        return try await LeaseOwner.$cell.withValue(cellName(index)) {
            try await database.query("""
                -- cross-tenant: the last row of every tenant in this cell, where a follower of the whole log starts
                SELECT coalesce(max(a.last), \(start)) FROM unnest(\(lows)::bigint[], \(highs)::bigint[]) AS r(low, high)
                CROSS JOIN LATERAL (SELECT max(audit_id) AS last FROM audit_log WHERE audit_id >= r.low AND audit_id < r.high) a
                """).decode(Int64.self).first ?? start
        }
    }

    private func cellName(_ index: Int) -> String? {
        database.cells.flatMap { index < $0.names.count ? $0.names[index] : nil }
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
        return try Self.decoded(rows)
    }

    /// Rows read with `columns`, as entries.
    private static func decoded(_ rows: [PostgresRow]) throws -> [AuditEntry] {
        try rows.decode((Int64, String?, Date, String, String?, String, String, String, String?, String?, String).self).map {
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

/// Where a follower of every cell's audit log stands (#43): one position
/// per cell, in the cells' order, as text `p0.p1…` (one cell: a bare id, as
/// before cells). A cell draws its ids from a range of its own
/// (`Cells.idRangeStart`), then from the blocks it claims (`IDBlocks`),
/// always upwards, so a position names a place in one cell's ids only.
public struct AuditFollowCursor: Sendable, Equatable {
    public var positions: [Int64]

    public init(positions: [Int64]) {
        self.positions = positions
    }

    /// `text` as `nextCursor` gave it; nil when it is not one.
    public init?(text: Substring) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...16).contains(parts.count) else { return nil }
        var positions: [Int64] = []
        for part in parts {
            guard (1...18).contains(part.count), part.allSatisfy({ ("0"..."9").contains($0) }), let value = Int64(part) else { return nil }
            positions.append(value)
        }
        self.positions = positions
    }

    public var text: String { positions.map(String.init).joined(separator: ".") }

}
