import Foundation
import Logging
import PostgresNIO

/// A ban as stored (#29): one account kept out of one room (`roomID`) or of
/// every room of its tenant (`roomID` nil), until `expiresAt` or until lifted.
public struct Ban: Sendable, Equatable {
    /// A ban keeps the account out; a mute (always of one room) keeps it
    /// quiet there (#29, item 3).
    public enum Kind: String, Sendable {
        case ban, mute
    }

    public var kind: Kind = .ban
    public var tenantID: TenantID
    public var id: Int64
    public var accid: AccountID
    public var roomID: RoomID?
    public var reason: String
    public var expiresAt: Date?
    public var createdAt: Date
    public var createdBy: String
    public var liftedAt: Date?
    public var liftedBy: String?

    /// In force at `now`: not lifted, not expired.
    public func isInForce(at now: Date) -> Bool {
        liftedAt == nil && (expiresAt.map { $0 > now } ?? true)
    }
}

/// Bans in PostgreSQL. Whether an account is banned is decided by one SQL
/// function, `roomkeeper_banned`, which every door calls in its own
/// statement (schema/core/0016_bans.sql).
public struct BanStore: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    static let columns = "tenant_id, ban_id, accid, room_id, reason, expires_at, created_at, created_by, lifted_at, lifted_by, kind"

    /// Records a ban; the caller writes what goes with it (a membership ended,
    /// sessions revoked, events) in the same transaction. One ban of a kind
    /// is in force per account and scope (`bans_one_in_force`): a new one
    /// keeps the id of the one in force and takes its place's terms (reason,
    /// expiry) when it is at least as strict, or when an admin makes it (an
    /// admin may shorten any ban); otherwise the stricter one stands (#41:
    /// a host's 1-second kick replaced an admin's permanent ban). Of two made
    /// at once the second waits for the first and then does the same. An ended ban of the scope is stamped ended first (at
    /// its expiry, by "expired"), so its history stays as it was.
    static func insert(_ tenantID: TenantID, kind: Ban.Kind = .ban, accid: AccountID, roomID: RoomID?, reason: String, expiresAt: Date?,
                       by actor: Actor, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> Ban {
        try await connection.run("""
            UPDATE bans SET lifted_at = expires_at, lifted_by = 'expired'
            WHERE tenant_id = \(tenantID) AND accid = \(accid) AND kind = \(kind.rawValue) AND coalesce(room_id, 0) = \(roomID ?? 0)
              AND lifted_at IS NULL AND expires_at <= \(now)
            """, logger: logger)
        let rows = try await connection.run("""
            INSERT INTO bans (tenant_id, accid, room_id, reason, expires_at, created_at, created_by, kind)
            VALUES (\(tenantID), \(accid), \(roomID), \(reason), \(expiresAt), \(now), \(actor.description), \(kind.rawValue))
            ON CONFLICT (tenant_id, accid, kind, (coalesce(room_id, 0))) WHERE lifted_at IS NULL
            DO UPDATE SET reason = CASE WHEN \(unescaped: Self.newTermsApply) THEN EXCLUDED.reason ELSE bans.reason END,
                          expires_at = CASE WHEN \(unescaped: Self.newTermsApply) THEN EXCLUDED.expires_at ELSE bans.expires_at END
            RETURNING \(unescaped: Self.columns)
            """, logger: logger).collect()
        guard let ban = try Self.decode(rows).first else { throw DatabaseUnavailable("the ban was not recorded") }
        return ban
    }

    /// Whether a new ban's terms replace the one in force (SQL over the
    /// conflicting row `bans` and the new one `EXCLUDED`): made by an admin,
    /// or lasting at least as long (no expiry lasts longest).
    static let newTermsApply = """
        (EXCLUDED.created_by = '\(Actor.admin.description)' OR EXCLUDED.expires_at IS NULL
         OR (bans.expires_at IS NOT NULL AND EXCLUDED.expires_at >= bans.expires_at))
        """

    /// Stamps `ban`, ended by its expiry but not yet so, as ended then (by
    /// "expired"), in its own statement: true whatever follows, and what
    /// the transaction did before a new ban of the scope. A decided ban
    /// (or mute) over it then reads again and finds none in force.
    func stampEnded(_ ban: Ban, now: Date) async throws {
        _ = try await database.query("""
            UPDATE bans SET lifted_at = expires_at, lifted_by = 'expired'
            WHERE tenant_id = \(ban.tenantID) AND ban_id = \(ban.id) AND lifted_at IS NULL AND expires_at <= \(now)
            """)
    }

    /// Lifts a room's ban or mute in force, in the room's transaction; nil
    /// when there is none by that id (or it was lifted before). A tenant's
    /// ban is lifted by its own statement (`RoomEngine.liftTenantBanOnce`).
    static func liftOfRoom(_ tenantID: TenantID, _ id: Int64, by actor: Actor, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> Ban? {
        let rows = try await connection.run("""
            UPDATE bans SET lifted_at = \(now), lifted_by = \(actor.description)
            WHERE tenant_id = \(tenantID) AND ban_id = \(id) AND lifted_at IS NULL AND room_id IS NOT NULL
            RETURNING \(unescaped: Self.columns)
            """, logger: logger).collect()
        return try Self.decode(rows).first
    }

    public func ban(_ tenantID: TenantID, _ id: Int64) async throws -> Ban? {
        try Self.decode(try await database.query("""
            SELECT \(unescaped: Self.columns) FROM bans WHERE tenant_id = \(tenantID) AND ban_id = \(id)
            """)).first
    }

    public struct Filter: Sendable {
        public enum Scope: Sendable, Equatable {
            /// Bans of one room.
            case room(RoomID)
            /// Tenant-wide bans.
            case tenant
        }

        public var scope: Scope
        public var kind: Ban.Kind
        public var accid: AccountID?
        /// Only bans in force at this time.
        public var inForceAt: Date?
        /// Older than this id (the page cursor).
        public var before: Int64?
        public var limit: Int

        public init(scope: Scope, kind: Ban.Kind = .ban, accid: AccountID? = nil, inForceAt: Date? = nil, before: Int64? = nil, limit: Int) {
            self.scope = scope
            self.kind = kind
            self.accid = accid
            self.inForceAt = inForceAt
            self.before = before
            self.limit = limit
        }
    }

    /// Newest first.
    public func bans(_ tenantID: TenantID, _ filter: Filter) async throws -> [Ban] {
        let roomID: RoomID? = if case .room(let id) = filter.scope { id } else { nil }
        return try Self.decode(try await database.query("""
            SELECT \(unescaped: Self.columns) FROM bans
            WHERE tenant_id = \(tenantID) AND kind = \(filter.kind.rawValue)
              AND (CASE WHEN \(roomID)::bigint IS NULL THEN room_id IS NULL ELSE room_id = \(roomID) END)
              AND (\(filter.accid)::text IS NULL OR accid = \(filter.accid))
              AND (\(filter.inForceAt)::timestamptz IS NULL OR (lifted_at IS NULL AND (expires_at IS NULL OR expires_at > \(filter.inForceAt))))
              AND (\(filter.before)::bigint IS NULL OR ban_id < \(filter.before))
            ORDER BY ban_id DESC LIMIT \(filter.limit)
            """))
    }

    /// Is `accid` muted in `roomID` at `now`?
    public func isMuted(_ tenantID: TenantID, accid: AccountID, roomID: RoomID, now: Date) async throws -> Bool {
        try await database.query("SELECT roomkeeper_muted(\(tenantID), \(accid), \(roomID), \(now))").decode(Bool.self).first ?? false
    }

    /// Is `accid` banned from `roomID` (or, with nil, from its tenant) at `now`?
    public func isBanned(_ tenantID: TenantID, accid: AccountID, roomID: RoomID?, now: Date) async throws -> Bool {
        try await database.query("SELECT roomkeeper_banned(\(tenantID), \(accid), \(roomID), \(now))").decode(Bool.self).first ?? false
    }

    static func decode(_ rows: [PostgresRow]) throws -> [Ban] {
        try rows.decode((String, Int64, String, Int64?, String, Date?, Date, String, Date?, String?, String).self).map {
            Ban(kind: Ban.Kind(rawValue: $10) ?? .ban, tenantID: $0, id: $1, accid: $2, roomID: $3, reason: $4, expiresAt: $5, createdAt: $6,
                createdBy: $7, liftedAt: $8, liftedBy: $9)
        }
    }
}
