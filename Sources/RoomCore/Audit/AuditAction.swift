/// Every privileged act the audit log names (#42: one vocabulary). The raw
/// value is the stable dotted name stored and served (`GET …/audit`); the
/// contract lists exactly these (`AdminContract+Audit`).
public enum AuditAction: String, Sendable, CaseIterable, Equatable {
    case roomCreate = "room.create"
    case roomExtend = "room.extend"
    case roomDissolve = "room.dissolve"
    case memberKick = "member.kick"
    case memberBan = "member.ban"
    case memberUnban = "member.unban"
    case memberMute = "member.mute"
    case memberUnmute = "member.unmute"
    case tenantBan = "tenant.ban"
    case tenantUnban = "tenant.unban"
    case accountRevoke = "account.revoke"
    case outboxRetry = "outbox.retry"
    case outboxReplay = "outbox.replay"
    case webhookTest = "webhook.test"
    case tenantsReload = "tenants.reload"
    case keyCreate = "key.create"
    case keyRevoke = "key.revoke"
    /// A step of a tenant's move between cells (#43): the outcome names it.
    case tenantMove = "tenant.move"
}
