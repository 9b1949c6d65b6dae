import Foundation
import PostgresNIO

/// One audit row as written: the act, and who asked as the request tells
/// (`AuditCaller`: the key's actor and fingerprint, the request id and
/// address). Written on its own (`AuditLog.append`) or inside a room's one
/// statement (a kick, #42).
struct AuditRow {
    let tenantID: TenantID?
    let at: Date
    let keepUntil: Date
    let actor: String
    let keyFingerprint: String?
    let action: String
    let target: String
    let outcome: String
    let requestID: String?
    let clientAddress: String?
    let detail: String

    init(_ act: AuditAct, by actor: Actor, keep: TimeInterval, now: Date) {
        let caller = AuditCaller.current
        switch actor {
        case .admin:
            self.actor = caller?.actor ?? "admin"
            keyFingerprint = caller?.keyFingerprint
        case .account, .system:
            self.actor = actor.description
            keyFingerprint = nil
        }
        tenantID = act.tenantID
        at = now
        keepUntil = now.addingTimeInterval(keep)
        action = act.action.rawValue
        target = act.target
        outcome = act.outcome
        requestID = caller?.requestID
        clientAddress = caller?.clientAddress
        detail = JSONValue.object(act.detail.mapValues(JSONValue.string)).jsonText
    }
}

extension PostgresQuery.StringInterpolation {
    /// `INSERT INTO audit_log …` of `row`; `onlyIf`: a CTE of the same
    /// statement, the row written only if it returned one.
    mutating func appendInterpolation(auditInsert row: AuditRow, onlyIf guardCTE: String? = nil) {
        appendLiteral("INSERT INTO audit_log (tenant_id, at, keep_until, actor, key_fingerprint, action, target, outcome, request_id, client_address, detail) SELECT ")
        appendInterpolation(row.tenantID)
        appendLiteral(", ")
        appendInterpolation(row.at)
        appendLiteral(", ")
        appendInterpolation(row.keepUntil)
        appendLiteral(", ")
        appendInterpolation(row.actor)
        appendLiteral(", ")
        appendInterpolation(row.keyFingerprint)
        appendLiteral(", ")
        appendInterpolation(row.action)
        appendLiteral(", ")
        appendInterpolation(row.target)
        appendLiteral(", ")
        appendInterpolation(row.outcome)
        appendLiteral(", ")
        appendInterpolation(row.requestID)
        appendLiteral(", ")
        appendInterpolation(row.clientAddress)
        appendLiteral(", ")
        appendInterpolation(row.detail)
        appendLiteral("::jsonb")
        if let guardCTE { appendLiteral(" WHERE EXISTS (SELECT 1 FROM \(guardCTE))") }
    }

    /// `, audited AS (INSERT INTO audit_log …)` of `row` if the CTE
    /// `guardCTE` returned a row; nothing when `row` is nil.
    mutating func appendInterpolation(auditCTE row: AuditRow?, onlyIf guardCTE: String) {
        guard let row else { return }
        appendLiteral(", audited AS (")
        appendInterpolation(auditInsert: row, onlyIf: Optional(guardCTE))
        appendLiteral(")")
    }
}
