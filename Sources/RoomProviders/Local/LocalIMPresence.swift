import Foundation
import PostgresNIO
import RoomCore

/// Connections and chatroom presence of the local IM: what the WebSocket
/// endpoint records, and what `isMember` reads.
extension LocalIMProvider {
    public enum Admission: Sendable, Equatable {
        case admitted
        /// The account already holds `limits.maxConnectionsPerAccount` sockets.
        case accountFull(Int)
        /// The tenant already holds `limits.maxConnections` sockets.
        case tenantFull(Int)
        /// The account is banned from the tenant (#29).
        case banned
    }

    /// Records a logged-in socket when the account and the tenant are under
    /// their limits, counted over every instance. The tenant's advisory lock,
    /// taken in its own statement, makes each count and its insert one step,
    /// so parallel logins cannot all pass the same count.
    ///
    /// The lock is tried, never waited for on a pooled connection (#27): in a
    /// reconnect storm after an instance died, each login held a connection
    /// while it queued for the tenant's lock, the survivors' pools filled and
    /// other tenants got 503. A login that finds the lock taken gives its
    /// connection back and tries again a few milliseconds later, for up to
    /// 5 s (then it is told to try again).
    public func connect(_ connection: UUID, accid: AccountID, instance: String) async throws -> Admission {
        let until = ContinuousClock.now + .seconds(5)
        var pause = 2
        while true {
            if let admission = try await tryConnect(connection, accid: accid, instance: instance) { return admission }
            guard ContinuousClock.now < until else { throw DatabaseUnavailable("too many logins at once for this tenant") }
            try await Task.sleep(for: .milliseconds(Int.random(in: pause...(2 * pause))))
            pause = min(pause * 2, 50)
        }
    }

    /// One try; nil when another login holds the tenant's lock.
    private func tryConnect(_ connection: UUID, accid: AccountID, instance: String) async throws -> Admission? {
        let now = clock.now()
        let fresh = now.addingTimeInterval(-Self.presenceWindow)
        return try await database.transaction { tx -> Admission? in
            // With the tenant's lock, the account's, shared (`AccountLock`): a
            // tenant ban of the account holds it to its commit, so the next
            // statement either runs after the ban and sees it, or the ban
            // waits, and the revocation it queues then finds this socket's row.
            let locked = try await tx.run("""
                SELECT CASE WHEN pg_try_advisory_xact_lock(hashtextextended('im-connections:' || \(tenantID), 0))
                            THEN pg_advisory_xact_lock_shared(\(AccountLock.key(tenantID, accid))) IS NOT NULL ELSE false END
                """, logger: database.logger).decode(Bool.self)
            guard locked.first == true else { return nil }
            let rows = try await tx.run("""
                SELECT count(*) FILTER (WHERE accid = \(accid))::int, count(*)::int, roomkeeper_banned(\(tenantID), \(accid), NULL, \(now))
                FROM im_connections
                WHERE tenant_id = \(tenantID) AND seen_at > \(fresh)
                """, logger: database.logger)
            var mine = 0, all = 0, banned = false
            for (account, tenant, ban) in try rows.decode((Int, Int, Bool).self) { (mine, all, banned) = (account, tenant, ban) }
            if banned { return .banned }
            if mine >= limits.maxConnectionsPerAccount { return .accountFull(limits.maxConnectionsPerAccount) }
            if all >= limits.maxConnections { return .tenantFull(limits.maxConnections) }
            try await tx.run("""
                INSERT INTO im_connections (tenant_id, connection_id, accid, instance_id, connected_at, seen_at)
                VALUES (\(tenantID), \(connection), \(accid), \(instance), \(now), \(now))
                """, logger: database.logger)
            return .admitted
        }
    }

    /// Keeps the connection counted as present.
    public func heartbeat(_ connection: UUID) async throws {
        try await database.query("""
            UPDATE im_connections SET seen_at = \(clock.now()) WHERE tenant_id = \(tenantID) AND connection_id = \(connection)
            """)
    }

    public func disconnect(_ connection: UUID) async throws {
        try await database.query("DELETE FROM im_connections WHERE tenant_id = \(tenantID) AND connection_id = \(connection)")
    }

    /// Enters an open chatroom; false when it does not exist or is closed.
    /// An account banned from the chatroom's room (its id is the room's)
    /// or from the tenant does not get in: `RoomError.banned` (#29).
    public func enter(_ chatroom: String, connection: UUID, accid: AccountID) async throws -> Bool {
        let now = clock.now()
        let roomID = Int64(chatroom)
        let rows = try await database.query("""
            WITH ban AS (SELECT roomkeeper_banned(\(tenantID), \(accid), \(roomID), \(now)) AS banned),
            entered AS (
                INSERT INTO im_presence (tenant_id, chatroom_id, connection_id, accid, entered_at)
                SELECT \(tenantID), \(chatroom), \(connection), \(accid), \(now)
                WHERE EXISTS (SELECT 1 FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open)
                  AND NOT (SELECT banned FROM ban)
                ON CONFLICT (tenant_id, chatroom_id, connection_id) DO NOTHING
                RETURNING 1)
            SELECT (SELECT banned FROM ban), EXISTS (SELECT 1 FROM entered)
            """)
        for (banned, entered) in try rows.decode((Bool, Bool).self) {
            if banned { throw RoomError.banned }
            if entered { return true }
        }
        return try await isOpen(chatroom)
    }

    public func exit(_ chatroom: String, connection: UUID) async throws {
        try await database.query("""
            DELETE FROM im_presence WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND connection_id = \(connection)
            """)
    }

    public func isOpen(_ chatroom: String) async throws -> Bool {
        let rows = try await database.query("""
            SELECT 1 FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open
            """)
        for _ in rows { return true }
        return false
    }
}

/// What clients of the local IM do themselves.
extension LocalIMProvider {
    public enum TextOutcome: Sendable, Equatable { case sent, muted, mutedMember, closed }

    /// A client's chatroom text: refused while the chatroom is muted, or the
    /// member is, in the chatroom's room (its id is the room's), by the
    /// engine's one rule (#29), asked in the same statement.
    public func sendText(_ chatroom: String, from: AccountID, text: String) async throws -> TextOutcome {
        let payload = #"{"from":\#(JSONValue.literal(from)),"msgType":"text","body":\#(JSONValue.literal(text)),"persisted":true}"#
        let now = clock.now()
        let rows = try await database.query("""
            WITH member AS (SELECT roomkeeper_muted(\(tenantID), \(from), \(Int64(chatroom)), \(now)) AS muted),
            sent AS (
                INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at)
                SELECT \(tenantID), chatroom_id, 'message', \(payload)::jsonb, \(now)
                FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open AND NOT muted
                  AND NOT (SELECT muted FROM member)
                RETURNING chatroom_id),
            counted AS (
                -- The room's session facts count its texts (#30).
                UPDATE im_chatrooms SET messages = messages + 1
                WHERE tenant_id = \(tenantID) AND chatroom_id IN (SELECT chatroom_id FROM sent))
            SELECT (SELECT muted FROM member), EXISTS (SELECT 1 FROM sent)
            """)
        for (mutedMember, sent) in try rows.decode((Bool, Bool).self) {
            if sent {
                UsageCounters.shared.record(.imMessage, tenant: tenantID, at: now)
                return .sent
            }
            if mutedMember { return .mutedMember }
        }
        return try await isOpen(chatroom) ? .muted : .closed
    }

    public func isMuted(_ chatroom: String) async throws -> Bool {
        let rows = try await database.query("SELECT muted FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom)")
        for muted in try rows.decode(Bool.self) { return muted }
        return false
    }
}
