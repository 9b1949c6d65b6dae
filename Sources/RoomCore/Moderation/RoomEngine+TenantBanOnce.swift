import Foundation
import PostgresNIO

/// A tenant's first ban of an account decided, then written once (#42), as
/// a room's first ban is: one read (is a ban of the account in the tenant
/// not yet lifted, and the new ban's id drawn), the ban made from its terms
/// without I/O, and one statement that takes the account's lock, writes the
/// ban, revokes the account's sessions and IM tokens, and writes the event,
/// its deliveries and the audit row. 4 round trips where the transaction
/// took 9 (`TenantBanRoundTripsTests`).
///
/// The statement's first act is the account's lock (`AccountLock`), taken
/// exclusively and held to its commit, as the transaction took it: joins
/// and creates of the account in flight (holding it shared) commit first,
/// later ones wait and then see the ban. The rooms it had joined or owns
/// are read after the commit, so they include those in flight.
extension RoomEngine {
    /// The ban, or nil when it needs the transaction: a ban over one not
    /// yet lifted (in force, its terms weighed against the new ones; or
    /// expired, not yet stamped so), or one that a racing ban wrote first
    /// (the unique index of bans in force decides; the transaction weighs).
    func tenantBanOnce(_ account: AccountID, terms: BanTerms, by actor: Actor, in tenant: Tenant) async throws -> Ban? {
        let now = clock.now()
        let read = try await database.query("""
            SELECT EXISTS (SELECT 1 FROM bans WHERE tenant_id = \(tenant.id) AND accid = \(account) AND kind = 'ban'
                             AND room_id IS NULL AND lifted_at IS NULL),
                   nextval(pg_get_serial_sequence('bans', 'ban_id'))
            """)
        guard let (notYetLifted, id) = try read.first?.decode((Bool, Int64).self), !notYetLifted else { return nil }
        let ban = terms.ban(id: id, tenantID: tenant.id, accid: account, roomID: nil, by: actor, now: now)
        var outbox = OutboxRows()
        outbox.add([.im(.revokeTokens(accid: account), roomID: nil)], tenantID: tenant.id, webhooks: [], now: now)
        outbox.append(Self.tenantWideEvent(.banned, ban, actor: actor, tenant: tenant, now: now))
        let audit = AuditRow(AuditAct(tenantID: tenant.id, action: .tenantBan, target: "account:\(account)", detail: Self.auditDetail(of: ban)),
                             by: actor, keep: tenant.retention.audit, now: now)
        let written = try await commitStatement { statement in
            try await statement.run("""
                WITH held AS (
                    SELECT pg_advisory_xact_lock(\(AccountLock.key(tenant.id, account))) AS locked
                ), ban AS (
                    INSERT INTO bans (tenant_id, ban_id, accid, room_id, reason, expires_at, created_at, created_by, kind) OVERRIDING SYSTEM VALUE
                    SELECT \(tenant.id), \(ban.id), \(account), NULL, \(ban.reason), \(ban.expiresAt), \(now), \(actor.description), 'ban'
                    FROM held
                    ON CONFLICT (tenant_id, accid, kind, (coalesce(room_id, 0))) WHERE lifted_at IS NULL DO NOTHING
                    RETURNING ban_id
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
        return written?.0 == 1 ? ban : nil
    }
}
