import Foundation

extension RoomWrites {
    /// Appends a privileged act on this transaction: it commits with the act
    /// or not at all.
    func audit(_ act: AuditAct, by actor: Actor, now: Date) async throws {
        let keep = act.tenantID.map(auditRetention) ?? RetentionPolicy().audit
        try await AuditLog.append(act, by: actor, keep: keep, now: now, on: connection, logger: logger)
    }
}
