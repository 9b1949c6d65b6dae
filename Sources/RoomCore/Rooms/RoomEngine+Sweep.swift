import Foundation
import PostgresNIO

/// Batch transitions for the expiry sweeper: rooms falling due are claimed
/// in SQL with `FOR UPDATE SKIP LOCKED` (several sweepers on one database
/// share the work and never close a room twice), each claimed room is
/// decided by `RoomLifecycle`, and the closed ones take the one close path.
extension RoomEngine {
    /// Which tenants a sweeper serves; nil serves all.
    public typealias TenantScope = [TenantID]?

    /// Closes up to `limit` rooms past their TTL. Returns how many closed.
    public func expireDue(limit: Int, tenants scope: TenantScope = nil) async throws -> Int {
        let now = clock.now()
        return try await sweep(.expire, now: now) { writes in
            try await writes.claimExpired(now: now, limit: limit, tenants: scope)
        }
    }

    /// Handles up to `limit` reservations past their deadline, unclaimed:
    /// released, or closed with reason `lapsed`, as each room asked. Returns
    /// how many rooms it changed.
    public func lapseDue(limit: Int, tenants scope: TenantScope = nil) async throws -> Int {
        let now = clock.now()
        return try await sweep(.lapse, now: now) { writes in
            try await writes.claimLapsed(now: now, limit: limit, tenants: scope)
        }
    }

    /// One transaction: claim, decide each room, release or close.
    private func sweep(_ command: RoomLifecycle.Command, now: Date, claim: (RoomWrites) async throws -> [Room]) async throws -> Int {
        // A batch of a thousand rooms is background work: it may take
        // longer than the pool's limit for a client's statement (60 s, and
        // the client's own deadline just past it).
        try await DatabaseDeadline.$statementSeconds.withValue(62) {
            try await commit(.transaction) { writes -> Int in
                try await writes.connection.run("SET LOCAL statement_timeout = '60s'", logger: database.logger)
                var closing: [CloseReason: [Room]] = [:]
                var released: [Room] = []
                for room in try await claim(writes) {
                    switch RoomLifecycle.decide(command, on: .init(room: room, joinedCount: 0, memberStatus: nil), now: now) {
                    case .success(.close(let reason)): closing[reason, default: []].append(room)
                    case .success(.releaseReservation): released.append(room)
                    default: break
                    }
                }
                try await writes.releaseReservations(released)
                try await writes.events(released, kind: .reservationLapsed, actor: .system, detail: ["action": "release"], at: now)
                try await writes.events(closing[.lapsed] ?? [], kind: .reservationLapsed, actor: .system, detail: ["action": "close"], at: now)
                for (reason, rooms) in closing.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    try await self.closeRooms(rooms, reason: reason, actor: .system, writes: writes, now: now)
                    writes.ledger.record(.closed(reason), rooms)
                }
                writes.ledger.record(RoomTransition(.reservationLapsed), released)
                return released.count + closing.values.map(\.count).reduce(0, +)
            }
        }
    }
}

extension RoomWrites {
    func claimExpired(now: Date, limit: Int, tenants scope: [TenantID]?) async throws -> [Room] {
        try await RoomRows.all(connection.run("""
            -- cross-tenant: the sweeper claims due rooms of every tenant it serves
            SELECT \(unescaped: RoomRows.columns) FROM rooms
            WHERE state = 'open' AND expires_at <= \(now)
              AND (\(scope)::text[] IS NULL OR tenant_id = ANY(\(scope)::text[]))
            ORDER BY expires_at
            LIMIT \(limit)
            FOR UPDATE SKIP LOCKED
            """, logger: logger))
    }

    func claimLapsed(now: Date, limit: Int, tenants scope: [TenantID]?) async throws -> [Room] {
        try await RoomRows.all(connection.run("""
            -- cross-tenant: the sweeper claims lapsed reservations of every tenant it serves
            SELECT \(unescaped: RoomRows.columns) FROM rooms
            WHERE state = 'open' AND reserved_until IS NOT NULL AND reservation_claimed_at IS NULL
              AND reserved_until <= \(now)
              AND (\(scope)::text[] IS NULL OR tenant_id = ANY(\(scope)::text[]))
            ORDER BY reserved_until
            LIMIT \(limit)
            FOR UPDATE SKIP LOCKED
            """, logger: logger))
    }
}
