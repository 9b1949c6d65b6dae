import Foundation
import Hummingbird
import RoomCore

/// The audit log (#29): a tenant admin reads its tenant's rows; the
/// operator reads every tenant's and its own.
extension AdminAPI {
    func registerAuditRoutes(_ admin: RouterGroup<RoomRequestContext>) {
        admin.get("tenants/:tenant/audit", use: tenantAuditLog)
        admin.get("audit", use: auditLog)
    }

    @Sendable func tenantAuditLog(_ request: Request, context: RoomRequestContext) async throws -> Page<AuditDTO> {
        let tenant = try context.authorizedTenant(tenants)
        return try await auditPage(.only(tenant.id), request, operatorShown: context.principal == .operator, followsCells: false)
    }

    @Sendable func auditLog(_ request: Request, context: RoomRequestContext) async throws -> Page<AuditDTO> {
        try context.requireOperator()
        var scope = AuditLog.Filter.Tenants.all
        if let tenant = request.uri.queryParameters.get("tenant") {
            guard TextRules.fits(tenant, 1...64) else { throw Problem.invalid("tenant", "must be 1-64 characters") }
            scope = .only(tenant)
        }
        return try await auditPage(scope, request, operatorShown: true, followsCells: true)
    }

    /// `after` follows the log (oldest first, from a cursor; with `before`
    /// too, up to it); without it the newest come first, `before` paging back. `action` and `actor` (an
    /// actor or a key fingerprint) filter exactly.
    /// `operatorShown` false (a tenant's admin): the operator's rows in the
    /// tenant's log say what it did, not with which key or from where (#41).
    /// `followsCells`: the operator's log (`/admin/v1/audit`, with or
    /// without `?tenant=`), whose `after` keeps a position per cell.
    private func auditPage(_ scope: AuditLog.Filter.Tenants, _ request: Request, operatorShown: Bool,
                           followsCells: Bool) async throws -> Page<AuditDTO> {
        let query = request.uri.queryParameters
        let after = followsCells ? nil : try Self.cursor(query.get("after"), field: "after")
        let before = try Self.cursor(query.get("before"), field: "before")
        let action = query.get("action").map { String($0) }
        if let action, !TextRules.fits(action, 1...64) { throw Problem.invalid("action", "must be 1-64 characters") }
        let actor = query.get("actor").map { String($0) }
        if let actor, !TextRules.fits(actor, 1...140) { throw Problem.invalid("actor", "must be 1-140 characters") }
        let limit = try Self.limit(query.get("limit"))
        let log = AuditLog(database: services.database)
        if followsCells, let text = query.get("after") {
            // The operator's log, followed across cells (#43): one position a
            // cell, with `?tenant=` too (CI's schemathesis sent a cursor of two
            // cells with a tenant, and the one-id cursor refused it).
            guard let cursor = AuditFollowCursor(text: Substring(text)) else { throw Problem.invalid("after", "must be a cursor from nextCursor") }
            let filter = AuditLog.Filter(tenants: scope, action: action, actor: actor, before: before, limit: limit)
            let followed = try await log.follow(filter, from: cursor)
            return Page(items: followed.entries.map { AuditDTO($0, operatorShown: operatorShown) }, nextCursor: followed.next.text)
        }
        let rows = try await log.entries(.init(tenants: scope, action: action, actor: actor, after: after, before: before, limit: limit + 1))
        let items = Array(rows.prefix(limit))
        // Following the log, the cursor is always the last row read (a poller
        // keeps it and asks again); paging back, it is there while more remain.
        let next: String? = after != nil ? (items.last.map { String($0.id) } ?? String(after!))
                                         : (rows.count > limit ? items.last.map { String($0.id) } : nil)
        return Page(items: items.map { AuditDTO($0, operatorShown: operatorShown) }, nextCursor: next)
    }

    static func cursor(_ text: String?, field: String) throws -> Int64? {
        guard let text else { return nil }
        guard let value = DecimalText.int64(text), value >= 0 else { throw Problem.invalid(field, "must be a cursor from nextCursor") }
        return value
    }
}

struct AuditDTO: ResponseEncodable {
    let id: String
    let tenant: String?
    let at: Date
    let actor: String
    let keyFingerprint: String?
    let action: String
    let target: String
    let outcome: String
    let requestId: String?
    let clientAddress: String?
    let detail: JSONValue

    init(_ entry: AuditEntry, operatorShown: Bool) {
        let hidden = !operatorShown && entry.actor == "operator"
        id = String(entry.id)
        tenant = entry.tenantID
        at = entry.at
        actor = entry.actor
        keyFingerprint = hidden ? nil : entry.keyFingerprint
        action = entry.action
        target = entry.target
        outcome = entry.outcome
        requestId = entry.requestID
        clientAddress = hidden ? nil : entry.clientAddress
        detail = JSONValue.parse(entry.detail) ?? .object([:])
    }

    /// Every key is always there, null when empty (as the contract states).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(tenant, forKey: .tenant)
        try container.encode(at, forKey: .at)
        try container.encode(actor, forKey: .actor)
        try container.encode(keyFingerprint, forKey: .keyFingerprint)
        try container.encode(action, forKey: .action)
        try container.encode(target, forKey: .target)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(clientAddress, forKey: .clientAddress)
        try container.encode(detail, forKey: .detail)
    }

    enum CodingKeys: String, CodingKey {
        case id, tenant, at, actor, keyFingerprint, action, target, outcome, requestId, clientAddress, detail
    }
}
