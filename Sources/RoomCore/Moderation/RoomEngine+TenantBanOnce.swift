import Foundation
import PostgresNIO

/// A tenant's ban of an account decided, then written once (#42), as a
/// room's ban is: one read (the account's tenant ban not yet lifted, and a
/// new ban's id drawn), the ban weighed without I/O (`BanTerms`: a first
/// ban from its terms; over one in force, `over`), and one statement that
/// takes the account's lock, writes the ban, revokes the account's sessions
/// and IM tokens, and writes the event, its deliveries and the audit row.
/// 4 round trips where the transaction took 9 (`TenantBanRoundTripsTests`).
///
/// The statement's first act is the account's lock (`AccountLock`), taken
/// exclusively and held to its commit, as the transaction took it: joins
/// and creates of the account in flight (holding it shared) commit first,
/// later ones wait and then see the ban. The rooms it had joined or owns
/// are read after the commit, so they include those in flight.
///
/// The statement is guarded by what was read: a first ban by the unique
/// index of bans in force (a racing first ban wins it, and this one reads
/// again and weighs itself over that one); a ban over one in force by that
/// ban's terms as read (a racing ban over it, or its lift, changes them).
/// The loser decides again. A ban ended by its expiry but not yet stamped
/// so is stamped first (its own statement, true whatever follows), as the
/// transaction did, so its history stays as it was.
extension RoomEngine {
    func tenantBanOnce(_ account: AccountID, terms: BanTerms, by actor: Actor, in tenant: Tenant) async throws -> Ban {
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let (standing, drawn) = try await tenantBanRead(account, in: tenant)
            if let standing, !standing.isInForce(at: now) {
                try await BanStore(database: database).stampEnded(standing, now: now)
                continue
            }
            let ban = standing.map { terms.over($0, by: actor) } ?? terms.ban(id: drawn, tenantID: tenant.id, accid: account, roomID: nil, by: actor, now: now)
            if try await writeTenantBan(ban, over: standing, by: actor, in: tenant, now: now) { return ban }
            database.logger.debug("an account's tenant ban changed between its read and a ban's write; deciding again", metadata: ["account": "\(account)"])
        }
        throw DatabaseUnavailable("the account's tenant ban is changing too often at once; try again")
    }

    /// The account's tenant ban not yet lifted (in force, or ended and not
    /// yet stamped so), and a new ban's id drawn.
    private func tenantBanRead(_ account: AccountID, in tenant: Tenant) async throws -> (standing: Ban?, drawn: Int64) {
        let rows = try await database.query("""
            SELECT d.drawn, b.ban_id, b.reason, b.expires_at, b.created_at, b.created_by
            FROM (SELECT nextval(pg_get_serial_sequence('bans', 'ban_id')) AS drawn) d
            LEFT JOIN bans b ON b.tenant_id = \(tenant.id) AND b.accid = \(account) AND b.kind = 'ban' AND b.room_id IS NULL AND b.lifted_at IS NULL
            """)
        guard let (drawn, id, reason, expiresAt, createdAt, createdBy) = try rows.first?.decode((Int64, Int64?, String?, Date?, Date?, String?).self) else {
            throw DatabaseUnavailable("the tenant ban's read answered nothing")
        }
        guard let id, let reason, let createdAt, let createdBy else { return (nil, drawn) }
        let standing = Ban(kind: .ban, tenantID: tenant.id, id: id, accid: account, roomID: nil, reason: reason, expiresAt: expiresAt,
                           createdAt: createdAt, createdBy: createdBy, liftedAt: nil, liftedBy: nil)
        return (standing, drawn)
    }

    /// `ban` written: inserted when `standing` is nil, else `standing`'s
    /// terms replaced by `ban`'s if they are still as read. False when the
    /// guard failed and nothing was written.
    private func writeTenantBan(_ ban: Ban, over standing: Ban?, by actor: Actor, in tenant: Tenant, now: Date) async throws -> Bool {
        let account = ban.accid
        var outbox = OutboxRows()
        outbox.add([.im(.revokeTokens(accid: account), roomID: nil)], tenantID: tenant.id, webhooks: [], now: now)
        outbox.append(Self.tenantWideEvent(.banned, ban, actor: actor, tenant: tenant, now: now))
        let audit = AuditRow(AuditAct(tenantID: tenant.id, action: .tenantBan, target: "account:\(account)", detail: Self.auditDetail(of: ban)),
                             by: actor, keep: tenant.retention.audit, now: now)
        let written = try await commitStatement { statement in
            try await statement.run("""
                WITH held AS (
                    SELECT pg_advisory_xact_lock(\(AccountLock.key(tenant.id, account))) AS locked
                ), inserted AS (
                    INSERT INTO bans (tenant_id, ban_id, accid, room_id, reason, expires_at, created_at, created_by, kind) OVERRIDING SYSTEM VALUE
                    SELECT \(tenant.id), \(ban.id), \(account), NULL, \(ban.reason), \(ban.expiresAt), \(now), \(actor.description), 'ban'
                    FROM held WHERE \(standing == nil)
                    ON CONFLICT (tenant_id, accid, kind, (coalesce(room_id, 0))) WHERE lifted_at IS NULL DO NOTHING
                    RETURNING ban_id
                ), weighed AS (
                    -- Over the ban in force: its terms as weighed (`BanTerms.over`), its id kept,
                    -- if they are still as read (checked again on the row's newest version).
                    UPDATE bans SET reason = \(ban.reason), expires_at = \(ban.expiresAt)
                    FROM held
                    WHERE bans.tenant_id = \(tenant.id) AND bans.ban_id = \(standing?.id ?? 0) AND \(standing != nil) AND bans.lifted_at IS NULL
                      AND bans.reason = \(standing?.reason ?? "") AND bans.expires_at IS NOT DISTINCT FROM \(standing?.expiresAt)::timestamptz
                    RETURNING bans.ban_id
                ), ban AS (
                    SELECT ban_id FROM inserted UNION ALL SELECT ban_id FROM weighed
                ), revoked AS (
                    -- As of when the lock was granted: a login that committed
                    -- while this statement waited for it is revoked too.
                    SELECT roomkeeper_revoke_sessions_after_lock(\(tenant.id), \(account), \(now), held.locked IS NOT NULL) AS sessions
                    FROM held WHERE EXISTS (SELECT 1 FROM ban)
                ), timeline AS (
                    \(timelineInsert: outbox, at: now, onlyIf: "ban")
                ), queued AS (
                    \(outboxInsert: outbox, at: now, onlyIf: "ban")
                )\(auditCTE: audit, onlyIf: "ban")
                SELECT (SELECT count(*)::int FROM ban), (SELECT count(*)::int FROM revoked)
                """, writing: [], listed: false).first?.decode((Int, Int).self)
        }
        return written?.0 == 1
    }

    /// A tenant ban lifted, decided then written once: read by its id (the
    /// caller's), then one statement guarded by the ban not yet lifted and
    /// its terms as read (the event carries them), which stamps the lift
    /// and writes the event, its deliveries and the audit row. 3 round
    /// trips (the read, the statement, its probe); the transaction took 6.
    /// Nil when the guard failed: the caller reads again.
    func liftTenantBanOnce(_ ban: Ban, by actor: Actor, in tenant: Tenant) async throws -> Ban? {
        let now = clock.now()
        var lifted = ban
        lifted.liftedAt = now
        lifted.liftedBy = actor.description
        let outbox = Self.tenantWideEvent(.unbanned, lifted, actor: actor, tenant: tenant, now: now)
        let audit = AuditRow(AuditAct(tenantID: tenant.id, action: .tenantUnban, target: "account:\(ban.accid)", detail: Self.auditDetail(of: ban)),
                             by: actor, keep: tenant.retention.audit, now: now)
        let written = try await commitStatement { statement in
            try await statement.run("""
                WITH lifted AS (
                    UPDATE bans SET lifted_at = \(now), lifted_by = \(actor.description)
                    WHERE tenant_id = \(tenant.id) AND ban_id = \(ban.id) AND room_id IS NULL AND lifted_at IS NULL
                      AND reason = \(ban.reason) AND expires_at IS NOT DISTINCT FROM \(ban.expiresAt)::timestamptz
                    RETURNING ban_id
                ), timeline AS (
                    \(timelineInsert: outbox, at: now, onlyIf: "lifted")
                ), queued AS (
                    \(outboxInsert: outbox, at: now, onlyIf: "lifted")
                )\(auditCTE: audit, onlyIf: "lifted")
                SELECT count(*)::int FROM lifted
                """, writing: [], listed: false).first?.decode(Int.self)
        }
        return written == 1 ? lifted : nil
    }
}
